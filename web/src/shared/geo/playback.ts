// Track playback (spec §2 track, §4 "Track play state defaults to moveend", §9 precision rule). Each segment is
// animated in as many steps as the precision rule gives for its length; frames are computed on demand from a
// prefix sum, so a 100,000-point track costs one Int32Array, not millions of objects.
import { haversine, precision, type TrackPoint } from './units';

export type PlayState = 'moveend' | 'moving' | 'pause';
export const DEFAULT_PLAY_STATE: PlayState = 'moveend';
export const PLAY_SPEEDS = [1, 2, 4, 8, 10, 15, 20] as const;
/** One animation step at 1× speed. */
export const STEP_MS = 100;

export interface Frame {
  lng: number;
  lat: number;
  time: number;
  /** m/s */
  speed: number;
  direction: number;
  /** Index of the point the frame is at or moving towards. */
  point: number;
}

export class Timeline {
  readonly points: readonly TrackPoint[];
  /** start[i] = index of the first frame of segment i (the segment ending at point i); start[0] = 0 is point 0. */
  private readonly start: Int32Array;
  readonly frames: number;

  constructor(points: readonly TrackPoint[]) {
    this.points = points;
    this.start = new Int32Array(points.length + 1);
    let total = points.length ? 1 : 0;
    for (let i = 1; i < points.length; i++) {
      this.start[i] = total;
      const a = points[i - 1]!;
      const b = points[i]!;
      const steps = b.precision && b.precision > 0 ? b.precision : precision(b.dist ?? haversine(a.lng, a.lat, b.lng, b.lat));
      total += steps;
    }
    this.start[points.length] = total;
    this.frames = total;
  }

  /** The segment (index of its end point) holding frame f. */
  private segmentOf(f: number): number {
    let lo = 1;
    let hi = this.points.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start[mid]! <= f) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  frameAt(index: number): Frame | undefined {
    const n = this.points.length;
    if (!n) return undefined;
    const f = Math.max(0, Math.min(this.frames - 1, Math.floor(index)));
    if (f === 0 || n === 1) return { ...pick(this.points[0]!), point: 0 };
    const seg = this.segmentOf(f);
    const a = this.points[seg - 1]!;
    const b = this.points[seg]!;
    const steps = (seg + 1 <= n ? this.start[seg + 1]! : this.frames) - this.start[seg]!;
    const t = (f - this.start[seg]! + 1) / steps;
    return {
      lng: a.lng + (b.lng - a.lng) * t,
      lat: a.lat + (b.lat - a.lat) * t,
      time: a.time + (b.time - a.time) * t,
      speed: a.speed + (b.speed - a.speed) * t,
      direction: b.direction,
      point: seg,
    };
  }

  /** The frame at which point i is reached. */
  frameOfPoint(i: number): number {
    if (i <= 0) return 0;
    const n = this.points.length;
    return (i + 1 <= n ? this.start[i + 1]! : this.frames) - 1;
  }

  /** The first frame at or after a time (scrubbing the speed timeline). */
  frameAtTime(time: number): number {
    const n = this.points.length;
    if (!n || time <= this.points[0]!.time) return 0;
    if (time >= this.points[n - 1]!.time) return this.frames - 1;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.points[mid]!.time < time) lo = mid + 1;
      else hi = mid;
    }
    return this.frameOfPoint(lo);
  }
}

const pick = (p: TrackPoint) => ({ lng: p.lng, lat: p.lat, time: p.time, speed: p.speed, direction: p.direction });

/** Frames to advance for dt ms at a speed multiplier (1× = one frame per STEP_MS). */
export function framesFor(dtMs: number, speed: number): number {
  return (dtMs / STEP_MS) * speed;
}

/** The play state after a control: play from the end restarts; reaching the last frame ends in moveend. */
export function nextState(state: PlayState, action: 'play' | 'pause' | 'stop' | 'end'): PlayState {
  switch (action) {
    case 'play':
      return 'moving';
    case 'pause':
      return state === 'moving' ? 'pause' : state;
    case 'stop':
    case 'end':
      return 'moveend';
  }
}
