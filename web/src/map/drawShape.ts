// Which drawn feature a draw-layer change is about. terra-draw's store also holds guidance points (the closing
// point of a line or polygon, snapping and coordinate points) and reports their changes on their own; the shape
// being drawn (or the one just finished) is the user's line or polygon, never one of those points.
import type { Feature, Geometry } from 'geojson';
import type { TerraDraw } from 'terra-draw';

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
