// The one RTCPeerConnection of a page (docs/voice.md §1): one sendrecv audio transceiver, negotiated over the socket;
// the microphone is asked once and put on the sender only while talking (replaceTrack: no renegotiation): a sender
// without a track sends no packets, where a disabled track would still send ~50 silent packets a second (30 kbit/s).
// What comes in plays through an <audio> element (volume, mute) and is also measured by an AnalyserNode (level
// meter, tests).
import type { VoiceSocket } from './protocol';
import { offerAhead, offerFor, rememberIceServers } from './offer';

export type RtcStatus = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';
export type MicStatus = 'unknown' | 'ok' | 'denied';

export interface InboundStats {
  packetsReceived: number;
  packetsLost: number;
  audioLevel: number;
  totalAudioEnergy: number;
  jitter: number;
}

export interface MediaLinkOptions {
  onStatus: (s: RtcStatus) => void;
  onMic: (s: MicStatus) => void;
  connectTimeoutMs?: number;
}

export class MediaError extends Error {
  readonly code: string;
  constructor(code: string, msg: string) {
    super(msg);
    this.code = code;
  }
}

/** An offer made ahead without ICE servers met a server that gives some: connect() makes another with them. */
class IceServersNeeded extends Error {
  constructor(readonly servers: RTCIceServer[]) {
    super('ICE servers to use');
  }
}

/** An rtc.close a page's link sent and the server may not have handled yet, by socket: the next offer waits for it. */
const closing = new WeakMap<VoiceSocket, Promise<void>>();

export class MediaLink {
  private pc?: RTCPeerConnection;
  private sender?: RTCRtpSender;
  private mic?: MediaStreamTrack;
  private micPromise?: Promise<MediaStreamTrack | undefined>;
  private micOn = false;
  private wire: Promise<void> = Promise.resolve();
  private gen = 0;
  private serverUp?: () => void;
  private ctx?: AudioContext;
  private analyser?: AnalyserNode;
  /** What comes in (the level meter's source), and the stream the meter measures now. */
  private metered?: MediaStream;
  private meterOf?: MediaStream;
  /** Makes the meter at the user's first gesture (meter()). */
  private gesture?: () => void;
  private buf?: Float32Array<ArrayBuffer>;
  readonly audio: HTMLAudioElement;
  status: RtcStatus = 'idle';
  private readonly sock: VoiceSocket;
  private readonly opts: MediaLinkOptions;
  private readonly offState: () => void;
  /** Called when the server says the connection is gone while it was up. */
  onLost?: () => void;
  /** TURN servers a dispatcher sent this terminal (`turn.config`, /ds/turn/send): used instead of rtc.config's. */
  private turn?: RTCIceServer[];

  /** Keeps TURN servers for the next connection (a terminal behind a NAT whose media does not get through). */
  setTurn(servers: RTCIceServer[]): void {
    this.turn = servers;
  }

  /** The TURN servers the next connection uses instead of rtc.config's, if a dispatcher sent some. */
  get turnServers(): RTCIceServer[] | undefined {
    return this.turn;
  }

  constructor(sock: VoiceSocket, opts: MediaLinkOptions) {
    this.sock = sock;
    this.opts = opts;
    this.audio = document.createElement('audio');
    this.audio.autoplay = true;
    this.audio.setAttribute('playsinline', '');
    this.audio.dataset.testid = 'voice-audio';
    this.audio.style.display = 'none';
    document.body.appendChild(this.audio);
    this.offState = sock.on<{ state: string }>('rtc.state', (e) => {
      if (e.data?.state === 'connected') this.serverUp?.();
      else if (e.data?.state === 'disconnected' && this.status === 'connected') {
        this.setStatus('failed');
        this.onLost?.();
      }
    });
  }

  private setStatus(s: RtcStatus) {
    this.status = s;
    this.opts.onStatus(s);
  }

  /** The microphone, asked once (again after a refusal when called from a gesture). */
  ensureMic(): Promise<MediaStreamTrack | undefined> {
    if (this.mic && this.mic.readyState === 'live') return Promise.resolve(this.mic);
    this.micPromise ??= (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('no mediaDevices');
        const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
        const track = stream.getAudioTracks()[0];
        if (!track) throw new Error('no audio track');
        this.mic = track;
        this.opts.onMic('ok');
        await this.putMic();
        return track;
      } catch {
        this.opts.onMic('denied');
        return undefined;
      } finally {
        this.micPromise = undefined;
      }
    })();
    return this.micPromise;
  }

  hasMic(): boolean {
    return !!this.mic && this.mic.readyState === 'live';
  }

  /** Microphone on the wire or not: off, nothing is sent at all. */
  setMic(on: boolean): void {
    if (this.micOn === on) return; // unchanged: the engine asks at every call.state (a new sender puts it itself)
    this.micOn = on;
    void this.putMic();
  }

  /**
   * The sender carries the microphone while it is on, nothing otherwise. Changes run one after another, each
   * reading the wish of its time, so a quick on/off never leaves the microphone on the wire.
   */
  private putMic(): Promise<void> {
    this.wire = this.wire.then(async () => {
      const track = this.micOn && this.mic?.readyState === 'live' ? this.mic : null;
      if (this.sender && this.sender.track !== track) await this.sender.replaceTrack(track).catch(() => {});
    });
    return this.wire;
  }

  /** Opens (or re-opens) the PeerConnection and resolves once the server carries media (`rtc.state` connected). */
  connect(): Promise<void> {
    return this.open();
  }

  /** connect(), with the ICE servers the server just gave (an offer made ahead without them did not fit). */
  private async open(given?: RTCIceServer[]): Promise<void> {
    const gen = ++this.gen;
    this.closePc();
    this.setStatus('connecting');
    try {
      // The microphone is asked for alongside, not first: listening needs none, and waiting for it (a permission
      // prompt, or a main thread busy rendering the first screen) held "Connecting voice…" for seconds (issue 32).
      // The sender takes it when it comes (ensureMic → putMic).
      void this.ensureMic();
      // The ICE servers are asked for every time, but the offer waits for them only where the server is known to
      // give some (TURN): otherwise it is made without (or was made at boot, offer.ts) and sent at once.
      const known = this.turn?.length ? this.turn : given;
      const servers = known ? Promise.resolve(known) : this.sock.request<{ iceServers?: RTCIceServer[] }>('rtc.config', {}).then((c) => rememberIceServers(c?.iceServers ?? []));
      servers.catch(() => {}); // awaited below only without an offer made ahead; a stop may also come first
      const ahead = known ? undefined : offerAhead();
      // No rtc.close first: the server replaces its old connection of this socket when the offer comes from a new
      // one (another DTLS certificate). A close this page sent earlier (a stopped engine) is let through first.
      await closing.get(this.sock);
      const made = ahead ?? offerFor(await servers);
      if (gen !== this.gen) {
        made.pc.close();
        return;
      }
      const pc = made.pc;
      this.pc = pc;
      this.sender = made.sender;
      await this.putMic();
      pc.ontrack = (e) => this.attach(e.track);
      pc.onconnectionstatechange = () => {
        if (this.pc !== pc) return;
        if ((pc.connectionState === 'failed' || pc.connectionState === 'closed') && this.status === 'connected') {
          this.setStatus('failed');
          this.onLost?.();
        }
      };
      let fail: (e: Error) => void = () => {};
      const up = new Promise<void>((resolve, reject) => {
        fail = reject;
        const timer = setTimeout(() => reject(new MediaError('502', 'media connection timed out')), this.opts.connectTimeoutMs ?? 15_000);
        this.serverUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      up.catch(() => {});
      // An offer made ahead assumed no ICE servers: if the server gives some after all, connect again with them.
      if (ahead) void servers.then((s) => s.length > 0 && fail(new IceServersNeeded(s)), () => {});
      await made.described;
      if (gen !== this.gen) return;
      const answer = await this.sock.request<RTCSessionDescriptionInit>('rtc.offer', { type: 'offer', sdp: made.offered((c) => this.sock.request('rtc.candidate', c).catch(() => {})) });
      if (gen !== this.gen) return;
      await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
      await up;
      if (gen !== this.gen) return;
      this.serverUp = undefined;
      this.setStatus('connected');
      this.unlock();
    } catch (e) {
      if (gen === this.gen) {
        this.closePc();
        if (e instanceof IceServersNeeded) return this.open(e.servers);
        this.setStatus('failed');
      }
      throw e;
    }
  }

  private closePc() {
    this.serverUp = undefined;
    if (this.pc) {
      this.pc.ontrack = null;
      this.pc.onicecandidate = null;
      this.pc.onconnectionstatechange = null;
      this.pc.close();
    }
    this.pc = undefined;
    this.sender = undefined;
  }

  /** Closes the PeerConnection (and tells the server, best effort). */
  close(notify = true): void {
    this.gen++;
    if (this.pc && notify) closing.set(this.sock, this.sock.request('rtc.close', {}).then(() => {}, () => {}));
    this.closePc();
    this.setStatus('closed');
  }

  /** Ends everything: PeerConnection, microphone, audio graph. */
  destroy(): void {
    this.close();
    this.offState();
    this.mic?.stop();
    this.mic = undefined;
    this.audio.srcObject = null;
    this.audio.remove();
    this.dropGesture();
    this.metered = this.meterOf = undefined;
    void this.ctx?.close().catch(() => {});
    this.ctx = undefined;
  }

  private attach(track: MediaStreamTrack) {
    const stream = new MediaStream([track]);
    // A media element waiting for data delays its document's load event, and a remote stream has no data until
    // somebody talks: attached before `load`, it would keep the page "loading" until the next talk burst.
    const play = () => {
      this.audio.srcObject = stream;
      this.audio.play().catch(() => {});
    };
    if (document.readyState === 'complete') play();
    else window.addEventListener('load', play, { once: true });
    this.metered = stream; // the meter follows it at its next read
  }

  /**
   * The level meter's audio graph on what comes in, made when level() is first read — nothing on the console
   * shows the level (the browser suite reads it to tell heard speech from silence): made at every sign-in, its
   * AudioContext took ≈ 0.1 s of the main thread on the way to the dispatch screen and then rendered silence
   * for as long as the console stayed open. Made once the page may run audio: an AudioContext made before the
   * user's first gesture is not allowed to start (it would measure nothing) and Chrome warns on the console for
   * it (issue 32); until then the first gesture makes it.
   */
  private meter() {
    const stream = this.metered;
    if (!stream || this.meterOf === stream) return;
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) {
      if (!this.gesture) {
        this.gesture = () => this.meter();
        for (const ev of ['pointerdown', 'keydown']) window.addEventListener(ev, this.gesture, { once: true, capture: true });
      }
      return;
    }
    this.dropGesture();
    try {
      const AC = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!AC) return;
      this.ctx ??= new AC();
      const analyser = this.ctx.createAnalyser();
      analyser.fftSize = 1024;
      this.ctx.createMediaStreamSource(stream).connect(analyser);
      this.analyser = analyser;
      this.meterOf = stream;
      this.buf = new Float32Array(analyser.fftSize);
    } catch {
      /* metering is optional */
    }
  }

  private dropGesture() {
    if (!this.gesture) return;
    for (const ev of ['pointerdown', 'keydown']) window.removeEventListener(ev, this.gesture, { capture: true });
    this.gesture = undefined;
  }

  /** Call from a user gesture: lets the <audio> element and the AudioContext run. */
  unlock(): void {
    if (this.audio.srcObject) this.audio.play().catch(() => {});
    if (this.ctx?.state === 'suspended') void this.ctx.resume().catch(() => {});
  }

  setVolume(percent: number): void {
    this.audio.volume = Math.min(1, Math.max(0, percent / 100));
  }

  setMuted(muted: boolean): void {
    this.audio.muted = muted;
  }

  /** RMS level (0…1) of what is being received now (0 until the meter, made at the first read, has heard it). */
  level(): number {
    this.meter();
    if (!this.analyser || !this.buf) return 0;
    this.analyser.getFloatTimeDomainData(this.buf);
    let sum = 0;
    for (const v of this.buf) sum += v * v;
    return Math.sqrt(sum / this.buf.length);
  }

  async inboundStats(): Promise<InboundStats | undefined> {
    if (!this.pc) return undefined;
    const report = await this.pc.getStats();
    let out: InboundStats | undefined;
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'inbound-rtp' && (s.kind === 'audio' || s.mediaType === 'audio')) {
        out = {
          packetsReceived: Number(s.packetsReceived ?? 0),
          packetsLost: Number(s.packetsLost ?? 0),
          audioLevel: Number(s.audioLevel ?? 0),
          totalAudioEnergy: Number(s.totalAudioEnergy ?? 0),
          jitter: Number(s.jitter ?? 0),
        };
      }
    });
    return out;
  }

  async outboundStats(): Promise<{ packetsSent: number; bytesSent: number } | undefined> {
    if (!this.pc) return undefined;
    const report = await this.pc.getStats();
    let out: { packetsSent: number; bytesSent: number } | undefined;
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'outbound-rtp' && (s.kind === 'audio' || s.mediaType === 'audio')) out = { packetsSent: Number(s.packetsSent ?? 0), bytesSent: Number(s.bytesSent ?? 0) };
    });
    return out;
  }
}
