import { describe, expect, it } from 'vitest';
import { AlarmSound, electSoundLeader, type AudioPort } from './sound';

// A Web Audio of the test's own: a context whose clock and state the test moves, sources that record start/stop.
function fakeAudio({ activated = true, running = true } = {}) {
  const sources: { loop: boolean; started: boolean; stopped: boolean; buffer: unknown }[] = [];
  const onState = new Set<() => void>();
  const gain = { gain: { value: 1 }, connect() {} };
  const ctx = {
    state: running ? 'running' : 'suspended',
    currentTime: 5,
    destination: {},
    createGain: () => gain,
    createBufferSource() {
      const src = { loop: false, started: false, stopped: false, buffer: null as unknown, connect() {}, disconnect() {}, start: () => (src.started = true), stop: () => (src.stopped = true) };
      sources.push(src);
      return src;
    },
    decodeAudioData: (bytes: ArrayBuffer) => Promise.resolve({ duration: 0.96, bytes: bytes.byteLength }),
    resume() {
      return Promise.resolve();
    },
    addEventListener: (_: string, fn: () => void) => onState.add(fn),
    removeEventListener: (_: string, fn: () => void) => onState.delete(fn),
  };
  const port: AudioPort & { gesture: boolean; contexts: number; fetches: number } = {
    gesture: activated,
    contexts: 0,
    fetches: 0,
    activated: () => port.gesture,
    context: () => {
      port.contexts++;
      return ctx as unknown as AudioContext;
    },
    fetchClip: () => {
      port.fetches++;
      return Promise.resolve(new ArrayBuffer(8));
    },
  };
  const setState = (state: string) => {
    ctx.state = state;
    onState.forEach((fn) => fn());
  };
  return { port, ctx, gain, sources, setState };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('alarm sound', () => {
  it('decoded ahead, it rings in the same call as the alarm, looping at the alarm volume, until not wanted', async () => {
    const a = fakeAudio();
    const s = new AlarmSound(a.port);
    s.prepare();
    await flush();
    expect(a.port.fetches).toBe(1); // before any alarm
    s.update({ wanted: true, leader: true, enabled: true, volume: 60 });
    expect(s.state).toBe('playing'); // no await: nothing is loaded on the alarm's way
    expect(a.sources).toHaveLength(1);
    expect(a.sources[0]).toMatchObject({ loop: true, started: true, stopped: false });
    expect(a.gain.gain.value).toBeCloseTo(0.6);
    a.ctx.currentTime += 2; // the context's clock: two loops of the 0.96 s clip
    expect(s.snapshot()).toMatchObject({ state: 'playing', playing: true, loops: 2 });
    expect(s.snapshot().time).toBeCloseTo(2);
    s.update({ wanted: true }); // the queue changes while ringing: still the one ring
    expect(a.sources).toHaveLength(1);
    s.update({ wanted: false });
    expect(s.state).toBe('idle');
    expect(a.sources[0].stopped).toBe(true);
    expect(s.snapshot()).toMatchObject({ playing: false, time: 0, startedAt: 0 });
    s.dispose();
  });

  it('before any gesture no context is made: the ring is blocked, and the first gesture starts it', async () => {
    const a = fakeAudio({ activated: false });
    const s = new AlarmSound(a.port);
    s.prepare();
    s.update({ wanted: true, leader: true, enabled: true });
    await flush();
    expect(a.port.contexts).toBe(0);
    expect(s.state).toBe('blocked');
    a.port.gesture = true;
    s.unlock();
    await flush();
    expect(s.state).toBe('playing');
    expect(a.port.fetches).toBe(1); // the clip fetched once, ahead
    s.dispose();
  });

  it('a context the browser keeps suspended is blocked, and rings once it runs', async () => {
    const a = fakeAudio({ running: false });
    const s = new AlarmSound(a.port);
    s.prepare();
    await flush();
    s.update({ wanted: true, leader: true, enabled: true });
    expect(s.state).toBe('blocked');
    a.setState('running');
    expect(s.state).toBe('playing');
    expect(a.sources).toHaveLength(1);
    s.dispose();
  });

  it('a follower window or alarm sound off in the settings stays silent', async () => {
    const a = fakeAudio();
    const s = new AlarmSound(a.port);
    s.prepare();
    await flush();
    s.update({ wanted: true, leader: false, enabled: true });
    expect(s.state).toBe('follower');
    expect(s.snapshot().leader).toBe(false);
    expect(a.sources).toHaveLength(0);
    s.update({ leader: true, enabled: false });
    expect(s.state).toBe('off');
    expect(a.sources).toHaveLength(0);
    s.update({ enabled: true });
    expect(s.state).toBe('playing');
    s.dispose();
  });

  it('an early gesture readies the audio without ringing', async () => {
    const a = fakeAudio({ activated: false });
    const s = new AlarmSound(a.port);
    s.update({ wanted: false });
    a.port.gesture = true;
    s.unlock();
    await flush();
    expect(a.port.contexts).toBe(1);
    expect(a.sources).toHaveLength(0);
    expect(s.state).toBe('idle');
    s.dispose();
  });

  it('a clip that failed to load is fetched again at the next gesture', async () => {
    const a = fakeAudio();
    let fail = true;
    const fetchClip = a.port.fetchClip;
    a.port.fetchClip = () => (fail ? Promise.reject(new Error('offline')) : fetchClip());
    const s = new AlarmSound(a.port);
    s.prepare();
    await flush();
    s.update({ wanted: true, leader: true, enabled: true });
    expect(s.state).toBe('idle'); // running, the clip not there
    await flush();
    fail = false;
    s.unlock();
    await flush();
    expect(s.state).toBe('playing');
    s.dispose();
  });
});

describe('sound leader election', () => {
  // A minimal Web Locks: one holder, a FIFO queue, steal.
  function fakeLocks() {
    let holder: { release: () => void; reject: (e: Error) => void } | null = null;
    const queue: (() => void)[] = [];
    const grant = (cb: () => Promise<void>, resolve: () => void, reject: (e: Error) => void) => {
      let done = false;
      holder = {
        release: () => {},
        reject: (e) => {
          done = true;
          reject(e);
        },
      };
      void cb().then(() => {
        if (done) return;
        holder = null;
        resolve();
        queue.shift()?.();
      });
    };
    return {
      request(_name: string, opts: { steal?: boolean }, cb: () => Promise<void>) {
        return new Promise<void>((resolve, reject) => {
          if (opts.steal && holder) {
            holder.reject(new DOMException('stolen', 'AbortError'));
            holder = null;
          }
          if (!holder) grant(cb, resolve, reject);
          else queue.push(() => grant(cb, resolve, reject));
        });
      },
    };
  }

  it('the main window takes the lead from a child; the child leads again when the main window leaves', async () => {
    const locks = fakeLocks();
    Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
    const child: boolean[] = [];
    const main: boolean[] = [];
    const leaveChild = electSoundLeader(false, (l) => child.push(l));
    await flush();
    expect(child.at(-1)).toBe(true);
    const leaveMain = electSoundLeader(true, (l) => main.push(l));
    await flush();
    await flush();
    expect(main.at(-1)).toBe(true);
    expect(child.at(-1)).toBe(false);
    leaveMain();
    await flush();
    await flush();
    expect(child.at(-1)).toBe(true);
    leaveChild();
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
  });

  it('without Web Locks every window rings', () => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    const seen: boolean[] = [];
    electSoundLeader(false, (l) => seen.push(l));
    expect(seen).toEqual([true]);
  });
});
