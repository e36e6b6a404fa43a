// GCJ-02 (spec §2, §5): Amap and Google draw China on GCJ-02 tiles, so WGS-84 points are shifted for those two
// providers, and only inside the shipped China outline (public/map/china.geojson, Natural Earth 50m). OSM tiles
// and everything outside the outline stay WGS-84. The server never converts (docs/geo.md).
import gcoord from 'gcoord';

export type Provider = 'osm' | 'google' | 'amap';
export type Ring = readonly (readonly [number, number] | readonly number[])[];
/** MultiPolygon coordinates: polygons → rings → positions. Holes (rings after the first) are honoured. */
export type Outline = readonly (readonly Ring[])[];

export const OUTLINE_URL = '/map/china.geojson';

export function needsGcj(provider: Provider): boolean {
  return provider === 'amap' || provider === 'google';
}

function inRing(lng: number, lat: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i]![0]!;
    const yi = ring[i]![1]!;
    const xj = ring[j]![0]!;
    const yj = ring[j]![1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

interface Indexed {
  polys: { box: [number, number, number, number]; rings: readonly Ring[] }[];
}
const cache = new WeakMap<Outline, Indexed>();

function index(outline: Outline): Indexed {
  let ix = cache.get(outline);
  if (ix) return ix;
  ix = {
    polys: outline.map((rings) => {
      const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const p of rings[0] ?? []) {
        box[0] = Math.min(box[0], p[0]!);
        box[1] = Math.min(box[1], p[1]!);
        box[2] = Math.max(box[2], p[0]!);
        box[3] = Math.max(box[3], p[1]!);
      }
      return { box, rings };
    }),
  };
  cache.set(outline, ix);
  return ix;
}

/** Point in the outline: bounding box first, then even-odd ray casting on the outer ring minus holes. */
export function inOutline(lng: number, lat: number, outline: Outline): boolean {
  for (const { box, rings } of index(outline).polys) {
    if (lng < box[0] || lng > box[2] || lat < box[1] || lat > box[3]) continue;
    if (!rings[0] || !inRing(lng, lat, rings[0])) continue;
    if (rings.slice(1).some((hole) => inRing(lng, lat, hole))) continue;
    return true;
  }
  return false;
}

/** Whether a WGS-84 point is shown shifted: GCJ provider and inside the outline (unknown outline → no shift). */
export function shouldConvert(provider: Provider, lng: number, lat: number, outline: Outline | undefined): boolean {
  return needsGcj(provider) && !!outline && inOutline(lng, lat, outline);
}

/** WGS-84 → what the map draws for this provider. */
export function toDisplay(provider: Provider, lng: number, lat: number, outline: Outline | undefined): [number, number] {
  if (!shouldConvert(provider, lng, lat, outline)) return [lng, lat];
  const [x, y] = gcoord.transform([lng, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number];
  return [x, y];
}

/** What the user drew on the map → WGS-84 for the server (the inverse of toDisplay). */
export function fromDisplay(provider: Provider, lng: number, lat: number, outline: Outline | undefined): [number, number] {
  if (!shouldConvert(provider, lng, lat, outline)) return [lng, lat];
  const [x, y] = gcoord.transform([lng, lat], gcoord.GCJ02, gcoord.WGS84) as [number, number];
  return [x, y];
}

/** Reads the outline from a GeoJSON FeatureCollection of Polygon/MultiPolygon features. */
export function outlineFromGeoJSON(fc: { features?: { geometry?: { type: string; coordinates: unknown } | null }[] }): Outline {
  const out: Ring[][] = [];
  for (const f of fc.features ?? []) {
    const g = f.geometry;
    if (g?.type === 'Polygon') out.push(g.coordinates as Ring[]);
    else if (g?.type === 'MultiPolygon') out.push(...(g.coordinates as Ring[][]));
  }
  return out;
}

let loading: Promise<Outline> | undefined;
/** Fetches the shipped outline once per window. */
export function loadOutline(): Promise<Outline> {
  loading ??= fetch(OUTLINE_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`outline ${r.status}`);
      return r.json();
    })
    .then(outlineFromGeoJSON)
    .catch((e) => {
      loading = undefined;
      throw e;
    });
  return loading;
}
