// Which drawn feature a draw-layer change is about. terra-draw's store also holds guidance points (the closing
// point of a line or polygon, snapping and coordinate points) and reports their changes on their own; the shape
// being drawn (or the one just finished) is the user's line or polygon, never one of those points.
import type { Feature, Geometry } from 'geojson';
import type { TerraDraw, TerraDrawKeyboardEvent } from 'terra-draw';

/** terra-draw marks its guidance points with one of these properties. */
const GUIDANCE = ['edited', 'selectionPoint', 'midPoint', 'closingPoint', 'snappingPoint', 'coordinatePoint'] as const;

/**
 * The shape of the given mode in the draw store's snapshot: the one being drawn, else the last one finished;
 * null when nothing of that mode is drawn.
 */
export function drawnShape(snapshot: readonly Feature<Geometry>[], mode: string): Feature<Geometry> | null {
  let last: Feature<Geometry> | null = null;
  for (const f of snapshot) {
    const p = f.properties ?? {};
    if (p.mode !== mode || GUIDANCE.some((k) => p[k])) continue;
    if (p.currentlyDrawing) return f;
    last = f;
  }
  return last;
}

/**
 * Calls fn with the shape of the current mode after every change of the draw store (guidance points' changes
 * included), so a measurement follows the line or polygon and keeps the finished one.
 */
export function onShapeChange(draw: TerraDraw, mode: () => string | undefined, fn: (f: Feature<Geometry> | null) => void): void {
  draw.on('change', () => {
    const m = mode();
    if (m) fn(drawnShape(draw.getSnapshot() as Feature<Geometry>[], m));
  });
}

/**
 * The shape as placed by clicks (or taps) so far. While terra-draw draws, a line ends in one more point that follows
 * the pointer (a repeat of the last click until it moves), and a polygon's ring holds that point before its closing
 * one; a readout of the placed shape is the same with a mouse as on a touch screen, where no pointer hovers.
 * Finished shapes are returned as they are.
 */
export function placedShape(f: Feature<Geometry> | null): Feature<Geometry> | null {
  if (!f?.properties?.currentlyDrawing) return f;
  const g = f.geometry;
  if (g.type === 'LineString') return { ...f, geometry: { ...g, coordinates: g.coordinates.slice(0, -1) } };
  const placed = Number(f.properties.committedCoordinateCount);
  if (g.type === 'Polygon' && placed > 0) {
    const ring = g.coordinates[0] ?? [];
    return { ...f, geometry: { ...g, coordinates: [[...ring.slice(0, placed), ring[0]!]] } };
  }
  return f;
}

/** How many points of a shape were placed (a polygon's closing point is its first one again). */
export function placedCount(f: Feature<Geometry> | null): number {
  const g = f?.geometry;
  if (g?.type === 'LineString') return g.coordinates.length;
  if (g?.type === 'Polygon') return Math.max(0, (g.coordinates[0]?.length ?? 1) - 1);
  return 0;
}

/**
 * The key terra-draw's line and polygon modes finish a shape on (given to them as keyEvents.finish): the Finish
 * button presses it for the user, so no keyboard and no double-click is needed.
 */
export const FINISH_KEY = 'Enter';

/** A drawing mode's key handler (terra-draw's modes take key presses through it). */
interface KeyHandling {
  onKeyUp(e: TerraDrawKeyboardEvent): void;
}

/**
 * Finishes the shape the mode is drawing, as its finish key would: terra-draw has no call for that, and a line
 * otherwise ends only on a second click of its last point.
 */
export function finishDrawing(mode: KeyHandling): void {
  mode.onKeyUp({ key: FINISH_KEY, heldKeys: [], preventDefault: () => {} });
}
