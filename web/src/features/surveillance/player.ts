// One tile's camera player: a receive-only WebRTC connection to the media server (POST /ds/camera/play, a
// non-trickle offer/answer), whose one video track plays in the tile's <video>.
import { cameraApi, type StreamState } from './api';

export interface PlayerHandle {
  stream: MediaStream;
  state: StreamState;
  code?: string;
  key?: string;
  close(): void;
}

/** Waits until ICE gathering is complete (the server does not trickle either), at most ms. */
function gathered(pc: RTCPeerConnection, ms = 2000): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      pc.removeEventListener('icegatheringstatechange', check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, ms);
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/** Opens a player for a stream; onEnd runs when the connection fails or closes from the far side. */
export async function openPlayer(streamId: string, onEnd: () => void): Promise<PlayerHandle> {
  const pc = new RTCPeerConnection();
  const stream = new MediaStream();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.ontrack = (e) => stream.addTrack(e.track);
  let closed = false;
  pc.onconnectionstatechange = () => {
    if (!closed && (pc.connectionState === 'failed' || pc.connectionState === 'closed')) onEnd();
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const ans = await cameraApi.play(streamId, pc.localDescription?.sdp ?? '');
    await pc.setRemoteDescription({ type: 'answer', sdp: ans.sdp });
    return {
      stream,
      state: ans.state,
      code: ans.code,
      key: ans.key,
      close: () => {
        closed = true;
        pc.close();
      },
    };
  } catch (e) {
    closed = true;
    pc.close();
    throw e;
  }
}

/** Saves a base64 image as a file (the snapshot button). */
export function saveDataUrl(name: string, type: string, base64: string): void {
  const a = document.createElement('a');
  a.href = `data:${type};base64,${base64}`;
  a.download = name;
  a.click();
}
