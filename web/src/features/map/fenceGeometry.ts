// What terra-draw drew → the fence geometry the server takes (docs/geo.md "Geofences"): polygons and rectangles as
// drawn; a circle as its centre and radius in metres (terra-draw draws circles as 64-gons).
import type { Feature, Geometry, Polygon } from 'geojson';
import type { FenceShape } from '../../shared/geo/api';
import { haversine } from '../../shared/geo/units';

/** What terra-draw drew, as the fence geometry the server takes (docs/geo.md "Geofences"). */
export function fenceGeometry(shape: FenceShape, f: Feature<Geometry>): { geometry: Polygon | { type: 'Point'; coordinates: [number, number] }; radius?: number } | null {
  if (f.geometry.type !== 'Polygon') return null;
  const ring = f.geometry.coordinates[0] ?? [];
  if (ring.length < 4) return null;
  if (shape !== 'circle') return { geometry: f.geometry };
  const pts = ring.slice(0, -1);
  const lng = pts.reduce((s, p) => s + p[0]!, 0) / pts.length;
  const lat = pts.reduce((s, p) => s + p[1]!, 0) / pts.length;
  const radius = pts.reduce((s, p) => s + haversine(lng, lat, p[0]!, p[1]!), 0) / pts.length;
  return { geometry: { type: 'Point', coordinates: [lng, lat] }, radius: Math.max(1, Math.round(radius)) };
}

