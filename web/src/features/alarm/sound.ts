// The alarm sound, played with Web Audio: the clip is fetched and decoded into an AudioBuffer ahead of the first
// alarm, the window's AudioContext (shared/sound.ts) runs from the page's first user gesture — at once when the page
// has had one already, as after the sign-in — and a ring is a looping AudioBufferSourceNode started in the same task
// as the alarm's store update. Nothing is loaded, buffered or decoded on the alarm's way: an <audio> element took
// 12–1079 ms from play() to sound under load. A running AudioContext keeps playing in a background tab (the spec:
// "SOS with sound even when the tab is in the background").
//
// Browsers refuse to run an AudioContext before the user has interacted with the page (and Chrome warns on the
// console when one is made too early), so until then a wanted ring is "blocked" and the first gesture starts it.
//
// Only one window of the console rings: the windows elect a "sound leader" with the Web Locks API. The main
// window takes the lock from a child window; when the leader closes, the lock passes to a waiting window.
// Without Web Locks every window rings (better twice than never).
//
// What it does, for tests and support: snapshot() (window.__tenfour.alarmSound(), controller.ts) — state = idle |
// playing | blocked (refused until a gesture) | follower (another window rings) | off (alarm sound off in
// settings), the leader, and the ring's own clock: seconds played and loops of the clip, read from the
// AudioContext.

import { audioContext } from '../../shared/sound';

export const SOUND_URL = '/sounds/alarm.wav';
export type SoundState = 'idle' | 'playing' | 'blocked' | 'follower' | 'off';

export interface SoundSnapshot {
  state: SoundState;
  leader: boolean;
  /** The ring's source is started and its context running. */
  playing: boolean;
  /** Seconds played since the ring started (the context's clock), and whole loops of the clip in them. */
  time: number;
  loops: number;
  /** Date.now() when the ring started (0 when it does not ring). */
  startedAt: number;
  volume: number;
}

/** What the sound needs from the browser (a test gives its own). */
export interface AudioPort {
  /** Whether the page has had a user gesture (an AudioContext may run). */
  activated(): boolean;
  /** The window's AudioContext, made (and resumed) on the first call. */
  context(): AudioContext | undefined;
  /** The clip's bytes. */
  fetchClip(): Promise<ArrayBuffer>;
}

const browserAudio: AudioPort = {
  activated: () => navigator.userActivation?.hasBeenActive ?? true,
  context: audioContext,
  fetchClip: async () => {
    const res = await fetch(SOUND_URL);
    if (!res.ok) throw new Error(`${SOUND_URL}: ${res.status}`);
    return res.arrayBuffer();
  },
};

export class AlarmSound {
  private wanted = false;
  private leader = true;
  private enabled = true;
  private volume = 0.6;
  private ctx: AudioContext | undefined;
  private clip: Promise<ArrayBuffer> | undefined;
  private decoding: Promise<void> | undefined;
  private buffer: AudioBuffer | undefined;
  private gain: GainNode | undefined;
  private source: AudioBufferSourceNode | undefined;
  private startedAt = 0; // the context's clock when the ring started
  private startedWall = 0;
  private listeners = new Set<() => void>();
  private onState = () => this.apply();

  constructor(private readonly audio: AudioPort = browserAudio) {}

  /** Called whenever the state may have changed (useSyncExternalStore). */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Fetches and decodes the clip ahead of the first alarm; opens the audio when the page may run it already. */
  prepare(): void {
    this.fetch();
    this.open();
  }

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
    return this.ctx?.state === 'running' ? 'idle' : 'blocked'; // idle: running, the clip still on its way
  }

  snapshot(): SoundSnapshot {
    const time = this.playing && this.ctx ? Math.max(0, this.ctx.currentTime - this.startedAt) : 0;
    const clip = this.buffer?.duration ?? 0;
    return {
      state: this.state,
      leader: this.leader,
      playing: this.playing,
      time,
      loops: clip > 0 ? Math.floor(time / clip) : 0,
      startedAt: this.source ? this.startedWall : 0,
      volume: this.volume,
    };
  }

  /** A user gesture: the page may run audio now; a refused ring starts. */
  unlock(): void {
    this.fetch();
    const ctx = this.open();
    if (ctx && ctx.state !== 'running') void ctx.resume().catch(() => {});
    this.apply();
  }

  dispose(): void {
    this.stop();
    this.ctx?.removeEventListener('statechange', this.onState);
    this.listeners.clear();
  }

  private get playing(): boolean {
    return !!this.source && this.ctx?.state === 'running';
  }

  private get should(): boolean {
    return this.wanted && this.leader && this.enabled;
  }

  /** The clip's bytes, fetched once (again after a failure). */
  private fetch(): Promise<ArrayBuffer> {
    if (!this.clip) {
      const clip = this.audio.fetchClip();
      clip.catch(() => {
        if (this.clip === clip) this.clip = undefined;
      });
      this.clip = clip;
    }
    return this.clip;
  }

  /** The context, once the page may run one; the clip decoded into it. */
  private open(): AudioContext | undefined {
    if (!this.ctx) {
      if (!this.audio.activated()) return undefined;
      this.ctx = this.audio.context();
      this.ctx?.addEventListener('statechange', this.onState);
    }
    if (this.ctx && !this.buffer && !this.decoding) {
      const ctx = this.ctx;
      this.decoding = this.fetch()
        .then((bytes) => ctx.decodeAudioData(bytes.slice(0))) // decoding detaches its input: keep the bytes for a retry
        .then(
          (buffer) => {
            this.buffer = buffer;
            this.apply();
          },
          () => {
            this.decoding = undefined; // tried again at the next gesture or alarm
          },
        );
    }
    return this.ctx;
  }

  private apply() {
    if (this.should) this.start();
    else this.stop();
    this.listeners.forEach((fn) => fn());
  }

  private start() {
    const ctx = this.open();
    if (!ctx || !this.buffer) return;
    if (!this.gain) {
      this.gain = ctx.createGain();
      this.gain.connect(ctx.destination);
    }
    this.gain.gain.value = this.volume;
    if (this.source) return;
    const source = ctx.createBufferSource();
    source.buffer = this.buffer;
    source.loop = true;
    source.connect(this.gain);
    source.start();
    this.source = source;
    this.startedAt = ctx.currentTime;
    this.startedWall = Date.now();
  }

  private stop() {
    if (!this.source) return;
    this.source.stop();
    this.source.disconnect();
    this.source = undefined;
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
