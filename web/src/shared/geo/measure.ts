// The map's ranging and area tools: the figure shown for what is drawn (WGS-84).
import type { Feature, Geometry } from 'geojson';
import { area as turfArea } from '@turf/turf';
import { formatArea, formatLength, haversine } from './units';

export type Measure = 'area' | 'distance';

/** The readout for a drawn line (distance: the sum of its legs) or polygon (area); '' for anything else. */
export function measureText(kind: Measure, f: Feature<Geometry> | null): string {
  if (!f) return '';
  if (kind === 'distance' && f.geometry.type === 'LineString') {
    const c = f.geometry.coordinates;
    let m = 0;
    for (let i = 1; i < c.length; i++) m += haversine(c[i - 1]![0]!, c[i - 1]![1]!, c[i]![0]!, c[i]![1]!);
    return formatLength(m);
  }
  if (kind === 'area' && f.geometry.type === 'Polygon') return formatArea(turfArea(f.geometry));
  return '';
}
