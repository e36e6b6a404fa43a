import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlarmSound, electSoundLeader } from './sound';

// jsdom has no media playback: play() resolves or rejects as a browser would, and fires "playing".
let allow = true;
beforeEach(() => {
  allow = true;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (!allow) return Promise.reject(new DOMException('no gesture', 'NotAllowedError'));
    Object.defineProperty(this, 'paused', { value: false, configurable: true });
    this.dispatchEvent(new Event('playing'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { value: true, configurable: true });
    this.dispatchEvent(new Event('pause'));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const el = () => document.querySelector<HTMLAudioElement>('audio[data-testid=alarm-sound]')!;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('alarm sound', () => {
  it('rings looping at the alarm volume while wanted, stops when not', async () => {
    const s = new AlarmSound();
    s.update({ wanted: true, leader: true, enabled: true, volume: 60 });
    await flush();
    expect(s.state).toBe('playing');
    expect(el().loop).toBe(true);
    expect(el().volume).toBeCloseTo(0.6);
    expect(el().dataset.state).toBe('playing');
    s.update({ wanted: false });
    expect(s.state).toBe('idle');
    expect(el().paused).toBe(true);
    s.dispose();
  });

  it('refused before a gesture: blocked, and the first gesture starts it', async () => {
    allow = false;
    const s = new AlarmSound();
    s.update({ wanted: true, leader: true, enabled: true });
    await flush();
    expect(s.state).toBe('blocked');
    expect(el().dataset.state).toBe('blocked');
    allow = true;
    s.unlock();
    await flush();
    expect(s.state).toBe('playing');
    s.dispose();
  });

  it('a follower window or alarm sound off in the settings stays silent', async () => {
    const s = new AlarmSound();
    s.update({ wanted: true, leader: false, enabled: true });
    await flush();
    expect(s.state).toBe('follower');
    expect(el().dataset.leader).toBe('0');
    expect(HTMLMediaElement.prototype.play).not.toHaveBeenCalled();
    s.update({ leader: true, enabled: false });
    expect(s.state).toBe('off');
    s.update({ enabled: true });
    await flush();
    expect(s.state).toBe('playing');
    s.dispose();
  });

  it('an early gesture unlocks silently without ringing', async () => {
    const s = new AlarmSound();
    s.update({ wanted: false });
    s.unlock();
    await flush();
    expect(el().paused).toBe(true);
    expect(el().muted).toBe(false);
    expect(s.state).toBe('idle');
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
