// The alarm sound: one looping <audio> element per window (HTMLAudio keeps playing in a background tab), at the
// alarm volume. Browsers refuse sound before the user has interacted with the page, so the first gesture unlocks
// it (and a ringing that was refused starts then).
//
// Only one window of the console rings: the windows elect a "sound leader" with the Web Locks API. The main
// window takes the lock from a child window; when the leader closes, the lock passes to a waiting window.
// Without Web Locks every window rings (better twice than never).
//
// The element carries what it does for tests and support: data-testid="alarm-sound", data-state =
// idle | playing | blocked (refused until a gesture) | follower (another window rings) | off (alarm sound off in
// settings), data-leader = 1 | 0.

export const SOUND_URL = '/sounds/alarm.wav';
export type SoundState = 'idle' | 'playing' | 'blocked' | 'follower' | 'off';

export class AlarmSound {
  private el: HTMLAudioElement | null = null;
  private wanted = false;
  private leader = true;
  private enabled = true;
  private volume = 0.6;
  private playing = false;
  private blocked = false;
  private unlocked = false;
  private listeners = new Set<() => void>();

  /** Called whenever the state may have changed (useSyncExternalStore). */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** What should ring (the queue), who rings (leader), the settings (enabled, volume 0–100). */
  update(p: { wanted?: boolean; leader?: boolean; enabled?: boolean; volume?: number }): void {
    if (p.wanted !== undefined) this.wanted = p.wanted;
    if (p.leader !== undefined) this.leader = p.leader;
    if (p.enabled !== undefined) this.enabled = p.enabled;
    if (p.volume !== undefined) this.volume = Math.min(1, Math.max(0, p.volume / 100));
    this.apply();
  }

  get state(): SoundState {
    if (!this.wanted) return 'idle';
    if (!this.enabled) return 'off';
    if (!this.leader) return 'follower';
    if (this.playing) return 'playing';
    return this.blocked ? 'blocked' : 'idle';
  }

  private get should(): boolean {
    return this.wanted && this.leader && this.enabled;
  }

  private element(): HTMLAudioElement {
    if (this.el) return this.el;
    const el = document.createElement('audio');
    el.src = SOUND_URL;
    el.loop = true;
    el.preload = 'auto';
    el.hidden = true;
    el.dataset.testid = 'alarm-sound';
    el.addEventListener('playing', () => {
      this.playing = !el.muted;
      this.blocked = false;
      this.mark();
    });
    el.addEventListener('pause', () => {
      this.playing = false;
      this.mark();
    });
    document.body.appendChild(el);
    this.el = el;
    return el;
  }

  private apply() {
    const el = this.element();
    el.volume = this.volume;
    if (this.should) {
      if (el.paused || el.muted) {
        el.muted = false;
        el.play().catch(() => {
          this.blocked = true;
          this.mark();
        });
      }
    } else if (!el.paused) {
      el.pause();
      el.currentTime = 0;
    }
    this.mark();
  }

  private mark() {
    if (!this.el) return;
    this.el.dataset.state = this.state;
    this.el.dataset.leader = this.leader ? '1' : '0';
    this.listeners.forEach((fn) => fn());
  }

  /** A user gesture: start a refused ringing, or unlock the element silently for later. */
  unlock(): void {
    const el = this.element();
    if (this.should) {
      if (el.paused) this.apply();
      return;
    }
    if (this.unlocked) return;
    this.unlocked = true;
    el.muted = true;
    el.play()
      .then(() => {
        if (!this.should) {
          el.pause();
          el.currentTime = 0;
        }
        el.muted = false;
      })
      .catch(() => {
        el.muted = false;
        this.unlocked = false;
      });
  }

  dispose(): void {
    this.el?.pause();
    this.el?.remove();
    this.el = null;
  }
}

const LOCK = 'tenfour-alarm-sound';

/**
 * Takes part in the sound-leader election; onLeader(true) when this window rings. `preferred` (the main window)
 * takes the lock from whoever holds it, once. Returns the function that leaves the election.
 */
export function electSoundLeader(preferred: boolean, onLeader: (leader: boolean) => void): () => void {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) {
    onLeader(true);
    return () => {};
  }
  let stopped = false;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const acquire = (steal: boolean) => {
    locks
      .request(LOCK, steal ? { steal: true } : {}, async () => {
        if (stopped) return;
        onLeader(true);
        await held;
      })
      .then(() => onLeader(false))
      .catch(() => {
        // Another (main) window took the lock: wait in line again.
        onLeader(false);
        if (!stopped) acquire(false);
      });
  };
  onLeader(false);
  acquire(preferred);
  return () => {
    stopped = true;
    release();
  };
}
