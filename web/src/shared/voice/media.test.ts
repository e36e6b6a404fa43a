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

let configs: RTCConfiguration[] = [];
let lastPC: FakePC | undefined;

class FakePC {
  constructor(cfg: RTCConfiguration) {
    configs.push(cfg);
    lastPC = this; // eslint-disable-line @typescript-eslint/no-this-alias
  }
  ontrack: ((e: { track: MediaStreamTrack }) => void) | null = null;
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
  configs = [];
  localStorage.clear();
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

/** A socket that logs what is asked and lets the test answer rtc.config and rtc.close when it wants. */
function slowSocket() {
  const sent: string[] = [];
  const pending: Record<string, (v: unknown) => void> = {};
  const sock = socket();
  const request = sock.request.bind(sock);
  sock.request = <R,>(type: string, data?: unknown) => {
    sent.push(type);
    if (type === 'rtc.config' || type === 'rtc.close') return new Promise<R>((r) => (pending[type] = r as (v: unknown) => void));
    return request<R>(type, data);
  };
  return { sock, sent, answer: (type: string, v: unknown) => pending[type]?.(v) };
}

describe('the offer (issue 32: a reload waited 700–800 ms for voice)', () => {
  it('goes out at once — no rtc.close first, no wait for the ICE servers — while the server gives none', async () => {
    const { sock, sent } = slowSocket();
    const link = new MediaLink(sock, { onStatus: () => {}, onMic: () => {} });
    await link.connect(); // rtc.config is never answered
    expect(link.status).toBe('connected');
    expect(sent).toEqual(['rtc.config', 'rtc.offer']);
    expect(configs).toEqual([{ iceServers: [] }]);
    link.destroy();
  });

  it('is made again with the ICE servers when the server gives some (TURN) before it connected, and then waits for them', async () => {
    const turn = [{ urls: 'turn:example.org:3478', username: 'u', credential: 'p' }];
    const first = slowSocket();
    const link = new MediaLink(first.sock, { onStatus: () => {}, onMic: () => {}, connectTimeoutMs: 60_000 });
    const connected = link.connect();
    first.answer('rtc.config', { iceServers: turn }); // before the first offer connected
    await connected;
    expect(link.status).toBe('connected');
    expect(configs).toEqual([{ iceServers: [] }, { iceServers: turn }]);
    link.destroy();

    // The next page knows: its offer waits for the ICE servers.
    const next = slowSocket();
    const again = new MediaLink(next.sock, { onStatus: () => {}, onMic: () => {} });
    const connecting = again.connect();
    await new Promise((r) => setTimeout(r, 20));
    expect(next.sent).not.toContain('rtc.offer');
    next.answer('rtc.config', { iceServers: turn });
    await connecting;
    expect(configs.at(-1)).toEqual({ iceServers: turn });
    again.destroy();
  });

  it('waits for an rtc.close the page sent before (a stopped engine), so the close cannot end the new connection', async () => {
    const { sock, sent, answer } = slowSocket();
    const old = new MediaLink(sock, { onStatus: () => {}, onMic: () => {} });
    await old.connect();
    old.destroy();
    const link = new MediaLink(sock, { onStatus: () => {}, onMic: () => {} });
    const connecting = link.connect();
    await new Promise((r) => setTimeout(r, 20));
    expect(sent.filter((t) => t === 'rtc.offer')).toHaveLength(1);
    answer('rtc.close', {});
    await connecting;
    expect(sent.filter((t) => t === 'rtc.offer')).toHaveLength(2);
    link.destroy();
  });
});

describe('the level meter', () => {
  it('makes its AudioContext when the level is first read, not when audio arrives or at the first gesture', async () => {
    const made: unknown[] = [];
    class FakeAudioContext {
      state = 'running';
      constructor() {
        made.push(this);
      }
      createAnalyser() {
        return { fftSize: 0, getFloatTimeDomainData: (b: Float32Array) => b.fill(0.5) };
      }
      createMediaStreamSource() {
        return { connect: () => {} };
      }
      close = async () => {};
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    vi.stubGlobal('MediaStream', class {
      constructor(readonly tracks: MediaStreamTrack[]) {}
    });
    vi.stubGlobal('navigator', { ...navigator, userActivation: { hasBeenActive: true }, mediaDevices: { getUserMedia: async () => ({ getAudioTracks: () => [mic] }) } });
    const link = new MediaLink(socket(), { onStatus: () => {}, onMic: () => {} });
    vi.spyOn(link.audio, 'play').mockResolvedValue();
    await link.connect();
    lastPC?.ontrack?.({ track: { kind: 'audio' } as MediaStreamTrack });
    link.unlock();
    expect(made).toHaveLength(0);

    expect(link.level()).toBeCloseTo(0.5);
    expect(link.level()).toBeCloseTo(0.5);
    expect(made).toHaveLength(1);
    link.destroy();
  });
});
