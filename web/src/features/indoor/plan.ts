// Pure helpers of the plan view: plan pixels ↔ metres, a floor's scale from two points, where a terminal was at a
// moment of its history and what a floor then shows, and the rules of beacon fields (spec §5) the dialogs check before the server does.
import type { Floor, Position } from './api';

/** The corners of a walkable area (ADR 0023, docs/api.md "Walkable areas"). */
export const MIN_AREA_POINTS = 3;
export const MAX_AREA_POINTS = 64;
/** The smallest walkable area, m². */
export const MIN_AREA_M2 = 0.25;

/** Metres per pixel from two plan points and their distance; undefined when the points coincide or d ≤ 0. */
export function scaleFromRef(x1: number, y1: number, x2: number, y2: number, distance: number): number | undefined {
  const px = Math.hypot(x2 - x1, y2 - y1);
  if (!(px >= 1) || !(distance > 0)) return undefined;
  return distance / px;
}

/** An accuracy in metres as a radius in plan pixels (never below a few pixels, so the dot stays visible). */
export function metresToPx(m: number, floor: Pick<Floor, 'scale'>, min = 0): number {
  return Math.max(min, m / floor.scale);
}

/** Floor area per beacon (m²) a 3 m accuracy needs (ADR 0023): about one beacon every 7 m, every point hearing several. */
export const AREA_PER_BEACON = 50;

/** The floor's area in m² and the beacons a 3 m accuracy needs on it. */
export function beaconsNeeded(floor: Pick<Floor, 'width' | 'height' | 'scale'>): { area: number; need: number } {
  const area = floor.width * floor.height * floor.scale * floor.scale;
  return { area, need: Math.ceil(area / AREA_PER_BEACON) };
}

/** Spec §5: the RSSI at 1 m is a whole number of dBm from −100 to −50. */
export function validRssi(v: number | null | undefined): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= -100 && v <= -50;
}

/** Spec §5: the environment decay is 1.1 to 10.0. */
export function validDecay(v: number | null | undefined): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1.1 && v <= 10;
}

/** A BLE address of six hexadecimal bytes (any case; colons, dashes or none). */
export function validMac(v: string): boolean {
  return /^[0-9a-f]{12}$/i.test(v.replace(/[:.-]/g, ''));
}

/**
 * Where a terminal was at time t in its history (sorted oldest first): between two positions on the same floor,
 * interpolated; across a floor change or a gap longer than maxGapMs, the earlier one. Undefined before the first.
 */
export function positionAt(history: Position[], t: number, maxGapMs = 10_000): Position | undefined {
  if (history.length === 0 || t < history[0].time) return undefined;
  let lo = 0;
  let hi = history.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (history[mid].time <= t) lo = mid;
    else hi = mid - 1;
  }
  const a = history[lo];
  const b = history[lo + 1];
  if (!b || b.floorId !== a.floorId || b.time - a.time > maxGapMs || b.time === a.time) return a;
  const f = (t - a.time) / (b.time - a.time);
  return { ...a, x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, accuracy: a.accuracy + (b.accuracy - a.accuracy) * f, time: t };
}

/**
 * What a floor shows, on the plan and in the side panel alike: during a playback only the played-back position
 * (when it is on this floor: its time and place, named), never the live ones; live, each terminal's latest
 * position on the floor.
 */
export function shownOnFloor(floorId: number, live: Iterable<Position>, playback?: { msId: string; at?: Position }): Position[] {
  if (playback) return playback.at?.floorId === floorId ? [{ ...playback.at, name: playback.at.name ?? playback.msId }] : [];
  return [...live].filter((p) => p.floorId === floorId);
}

/** A polygon's area in m² (plan pixels at the floor's scale). */
export function polygonArea(points: [number, number][], floor: Pick<Floor, 'scale'>): number {
  let a = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i];
    const [x2, y2] = points[(i + 1) % points.length];
    a += x1 * y2 - x2 * y1;
  }
  return (Math.abs(a) / 2) * floor.scale * floor.scale;
}

function segmentsMeet(a: [number, number], b: [number, number], c: [number, number], d: [number, number]): boolean {
  const cross = (o: [number, number], p: [number, number], q: [number, number]) => (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]);
  const on = (o: [number, number], p: [number, number], q: [number, number]) =>
    Math.min(o[0], p[0]) <= q[0] && q[0] <= Math.max(o[0], p[0]) && Math.min(o[1], p[1]) <= q[1] && q[1] <= Math.max(o[1], p[1]);
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && on(c, d, a)) || (d2 === 0 && on(c, d, b)) || (d3 === 0 && on(a, b, c)) || (d4 === 0 && on(a, b, d));
}

/**
 * Why a walkable area's polygon would be refused — the server's rule (code 160): 'few' (under 3 corners), 'many'
 * (over 64), 'off' (a corner off the plan), 'small' (under 0.25 m²), 'crossing' (two edges meet but at a shared
 * corner) — or undefined when it is fine.
 */
export function polygonProblem(points: [number, number][], floor: Pick<Floor, 'width' | 'height' | 'scale'>): 'few' | 'many' | 'off' | 'small' | 'crossing' | undefined {
  const n = points.length;
  if (n < MIN_AREA_POINTS) return 'few';
  if (n > MAX_AREA_POINTS) return 'many';
  if (points.some(([x, y]) => x < 0 || y < 0 || x > floor.width || y > floor.height)) return 'off';
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsMeet(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n])) return 'crossing';
    }
  }
  if (polygonArea(points, floor) < MIN_AREA_M2) return 'small';
  return undefined;
}
