import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaLink } from './media';
import type { VoiceSocket } from './protocol';

// What goes on the wire: the microphone is on the sender only while it is on. A disabled track would still send
// ~50 silent packets a second; a sender without a track sends none (tests/e2e/phone.mjs measures the uplink).

/** A sender whose replaceTrack settles a little later, as a browser's does. */
class FakeSender {
  track: MediaStreamTrack | null = null;
  readonly history: (MediaStreamTrack | null)[] = [];
  replaceTrack(t: MediaStreamTrack | null) {
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        this.track = t;
        this.history.push(t);
        resolve();
      }, 5),
    );
  }
}

let sender: FakeSender;
const mic = { kind: 'audio', readyState: 'live', enabled: true, stop: vi.fn() } as unknown as MediaStreamTrack;

class FakePC {
  ontrack = null;
  onicecandidate = null;
  onconnectionstatechange = null;
  connectionState = 'new';
  localDescription = { type: 'offer', sdp: 'v=0 m=audio' };
  addTransceiver(what: unknown) {
    sender = new FakeSender();
    if (typeof what !== 'string') sender.track = what as MediaStreamTrack;
    return { sender };
  }
  createOffer = async () => ({ type: 'offer', sdp: 'v=0 m=audio' });
  setLocalDescription = async () => {};
  setRemoteDescription = async () => {};
  close() {}
}

function socket() {
  const listeners = new Map<string, (e: { type: string; data: unknown }) => void>();
  const sock: VoiceSocket = {
    request: <R,>(type: string) => {
      if (type === 'rtc.offer') setTimeout(() => listeners.get('rtc.state')?.({ type: 'rtc.state', data: { state: 'connected' } }), 0);
      return Promise.resolve((type === 'rtc.offer' ? { type: 'answer', sdp: 'v=0' } : {}) as R);
    },
    on: <D,>(type: string, fn: (e: { type: string; data: D }) => void) => {
      listeners.set(type, fn as (e: { type: string; data: unknown }) => void);
      return () => listeners.delete(type);
    },
  };
  return sock;
}

beforeEach(() => {
  vi.stubGlobal('RTCPeerConnection', FakePC);
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: async () => ({ getAudioTracks: () => [mic] }) } });
});
afterEach(() => vi.unstubAllGlobals());

describe('the microphone on the wire', () => {
  it('is not on the sender while idle, is while talking, and a quick press and release leaves it off', async () => {
    const link = new MediaLink(socket(), { onStatus: () => {}, onMic: () => {} });
    await link.connect();
    await vi.waitFor(() => expect(link.status).toBe('connected'));
    expect(sender.track).toBeNull();

    link.setMic(true);
    await vi.waitFor(() => expect(sender.track).toBe(mic));
    link.setMic(false);
    await vi.waitFor(() => expect(sender.track).toBeNull());

    // Pressed and released before the first change settled: the microphone never goes on the wire.
    vi.useFakeTimers();
    const changes = sender.history.length;
    link.setMic(true);
    link.setMic(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(sender.track).toBeNull();
    expect(sender.history.length).toBe(changes);
    vi.useRealTimers();
    link.destroy();
  });

  it('connects without waiting for the microphone, and puts it on the sender once it comes (a permission prompt)', async () => {
    let grant: (s: { getAudioTracks: () => MediaStreamTrack[] }) => void = () => {};
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: () => new Promise((r) => (grant = r)) } });
    const link = new MediaLink(socket(), { onStatus: () => {}, onMic: () => {} });
    await link.connect();
    expect(link.status).toBe('connected');
    expect(link.hasMic()).toBe(false);
    link.setMic(true);
    grant({ getAudioTracks: () => [mic] });
    await vi.waitFor(() => expect(sender.track).toBe(mic));
    link.destroy();
  });
});
