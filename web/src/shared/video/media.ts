// The browser side of a video session (docs/video.md): one RTCPeerConnection per session with an audio and a video
// transceiver, both sendrecv; the session's codec is fixed by signalling before the offer, the server answers with
// that one. Shared by the console's video call window and the phone app.

/** What a video session needs of a socket (the console's live client or the phone's terminal socket). */
export interface VideoSocket {
  request<R = unknown>(type: string, data?: unknown, timeoutMs?: number): Promise<R>;
  on<D = unknown>(type: string, fn: (e: { data: D }) => void): () => void;
}

/** Spec §9's camera resolution preference, best first. */
export const RESOLUTIONS = [
  { name: '720p', width: 1280, height: 720 },
  { name: 'SVGA', width: 800, height: 600 },
  { name: 'VGA', width: 640, height: 480 },
  { name: '360p', width: 640, height: 360 },
  { name: 'CIF', width: 352, height: 288 },
  { name: 'QCIF', width: 176, height: 144 },
  { name: 'QQVGA', width: 160, height: 120 },
] as const;
export type ResolutionName = (typeof RESOLUTIONS)[number]['name'];

/** The video codecs the server forwards that this browser can send and receive, VP8 first. */
export function browserCodecs(): string[] {
  const caps = (typeof RTCRtpReceiver !== 'undefined' && RTCRtpReceiver.getCapabilities?.('video')?.codecs) || [];
  const have = new Set(caps.map((c) => c.mimeType.toUpperCase()));
  const out = ['VP8', 'H264'].filter((c) => have.size === 0 || have.has(`VIDEO/${c}`));
  return out.length ? out : ['VP8', 'H264'];
}

/**
 * Opens the camera at the wanted resolution, falling back down spec §9's list when the camera cannot do it (and to
 * any size at the end). facing: 'user' (front) or 'environment' (back).
 */
export async function openCamera(resolution: string, facing: 'user' | 'environment' = 'user', audio = true): Promise<MediaStream> {
  const start = Math.max(0, RESOLUTIONS.findIndex((r) => r.name === resolution));
  let last: unknown;
  for (const r of RESOLUTIONS.slice(start)) {
    try {
      return await navigator.mediaDevices.getUserMedia({
        audio,
        video: { width: { exact: r.width }, height: { exact: r.height }, facingMode: facing },
      });
    } catch (e) {
      last = e;
      if (e instanceof DOMException && e.name !== 'OverconstrainedError') break;
    }
  }
  try {
    return await navigator.mediaDevices.getUserMedia({ audio, video: { facingMode: facing } });
  } catch {
    throw last instanceof Error ? last : new Error('camera');
  }
}

/** Applies a resolution to a running camera track (falling back down the list); false when none applies. */
export async function applyResolution(track: MediaStreamTrack, resolution: string): Promise<boolean> {
  const start = Math.max(0, RESOLUTIONS.findIndex((r) => r.name === resolution));
  for (const r of RESOLUTIONS.slice(start)) {
    try {
      await track.applyConstraints({ width: { exact: r.width }, height: { exact: r.height } });
      return true;
    } catch {
      /* the next one down */
    }
  }
  return false;
}

/** One side of one session: negotiates, sends the local tracks, exposes the remote stream. */
export class VideoPeer {
  readonly remote = new MediaStream();
  private pc?: RTCPeerConnection;
  private audio?: RTCRtpTransceiver;
  private video?: RTCRtpTransceiver;
  private off: (() => void)[] = [];
  private closed = false;
  /** The server reported this side connected (`video.rtc`). */
  connected = false;
  onChange?: () => void;

  constructor(
    private readonly sock: VideoSocket,
    readonly callId: string,
  ) {}

  /** Negotiates the connection; local may be undefined (receive only). */
  async start(local?: MediaStream): Promise<void> {
    const { iceServers } = await this.sock.request<{ iceServers: RTCIceServer[] }>('rtc.config', {});
    if (this.closed) return;
    const pc = new RTCPeerConnection({ iceServers });
    this.pc = pc;
    this.audio = pc.addTransceiver('audio', { direction: 'sendrecv' });
    this.video = pc.addTransceiver('video', { direction: 'sendrecv' });
    await this.setLocal(local);
    pc.ontrack = (e) => {
      this.remote.addTrack(e.track);
      this.onChange?.();
    };
    const queued: RTCIceCandidateInit[] = [];
    let answered = false;
    const sendCandidate = (c: RTCIceCandidateInit) =>
      void this.sock.request('video.candidate', { callId: this.callId, ...c }).catch(() => {});
    pc.onicecandidate = (e) => {
      if (!e.candidate) return;
      const c = e.candidate.toJSON();
      if (answered) sendCandidate(c);
      else queued.push(c);
    };
    this.off.push(
      this.sock.on<{ callId: string; state: string }>('video.rtc', (e) => {
        if (e.data.callId !== this.callId) return;
        this.connected = e.data.state === 'connected';
        this.onChange?.();
      }),
    );
    await pc.setLocalDescription(await pc.createOffer());
    const answer = await this.sock.request<{ sdp: string }>('video.offer', { callId: this.callId, type: 'offer', sdp: pc.localDescription!.sdp });
    if (this.closed) return;
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    answered = true;
    queued.splice(0).forEach(sendCandidate);
  }

  /** Puts a stream's tracks on the senders (no renegotiation); undefined stops sending. */
  async setLocal(local?: MediaStream): Promise<void> {
    await this.audio?.sender.replaceTrack(local?.getAudioTracks()[0] ?? null);
    await this.video?.sender.replaceTrack(local?.getVideoTracks()[0] ?? null);
  }

  /** Frames decoded so far (getStats inbound-rtp video), for the UI and the browser suite. */
  async framesDecoded(): Promise<number> {
    if (!this.pc) return 0;
    let n = 0;
    (await this.pc.getStats()).forEach((s: { type?: string; kind?: string; framesDecoded?: number }) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') n += s.framesDecoded ?? 0;
    });
    return n;
  }

  close(): void {
    this.closed = true;
    this.off.splice(0).forEach((f) => f());
    this.pc?.close();
    this.remote.getTracks().forEach((t) => t.stop());
  }
}
