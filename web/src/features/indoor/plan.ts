// Pure helpers of the plan view: plan pixels ↔ metres, a floor's scale from two points, where a terminal was at a
// moment of its history, and the rules of beacon fields (spec §5) the dialogs check before the server does.
import type { Floor, Position } from './api';

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
