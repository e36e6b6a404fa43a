// The server's street map (docs/adr/0036): a PMTiles archive the server serves as a plain file
// (/tiles/streets.pmtiles, --tiles or streets.pmtiles in its data directory), read by MapLibre through the
// pmtiles protocol by range requests. It is the street map of a closed network: MapView shows it when the
// provider's tiles cannot be reached, in place of the blue sheet the country outlines leave at street zoom.
// The style below is written for the Protomaps basemap schema (https://docs.protomaps.com/basemaps/layers:
// earth, water, landuse, roads, buildings), which `pmtiles extract` of a Protomaps build gives a city, and
// which the test archive (internal/tiles/demo.go) uses. No labels: they would need a glyph server.
import * as maplibregl from 'maplibre-gl';
import type { FilterSpecification, LayerSpecification } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import { THEMES, type MapTheme } from './themes';

export const STREETS_INFO_URL = '/tiles/streets.json';
export const STREETS_SOURCE = 'streets';

/** What the server says about its archive (GET /tiles/streets.json, docs/api.md "Offline street maps"). */
export interface StreetsInfo {
  archive: boolean;
  url?: string;
  schema?: string;
  minzoom?: number;
  maxzoom?: number;
  bounds?: [number, number, number, number];
  center?: [number, number, number];
}

/** The server's archive, or { archive: false } when it has none (or cannot say: then the map is as without one). */
export async function fetchStreets(fetchFn: typeof fetch = fetch): Promise<StreetsInfo> {
  try {
    const res = await fetchFn(STREETS_INFO_URL, { cache: 'no-cache' });
    const info = res.ok ? ((await res.json()) as StreetsInfo) : undefined;
    return info?.archive && typeof info.url === 'string' ? info : { archive: false };
  } catch {
    return { archive: false };
  }
}

let registered = false;

/** Registers the pmtiles:// protocol with MapLibre, once for every map of the page. */
export function registerStreetsProtocol(): void {
  if (registered) return;
  registered = true;
  // metadata: the archive's own attribution (an OpenStreetMap build names OpenStreetMap) reaches the map.
  maplibregl.addProtocol('pmtiles', new Protocol({ metadata: true }).tile);
}

/** The vector source of the archive: MapLibre learns its zooms and bounds from the archive's header. */
export function streetsSource(info: StreetsInfo, origin: string) {
  return { type: 'vector' as const, url: `pmtiles://${new URL(info.url!, origin).href}` };
}

const MAJOR: FilterSpecification = ['in', ['get', 'kind'], ['literal', ['highway', 'major_road', 'medium_road']]];
const width = (base: number) => ['interpolate', ['exponential', 1.6], ['zoom'], 12, base * 0.5, 18, base * 8];

/** The street layers, drawn in this order between the country outlines and the provider's rasters. */
export function streetLayers(theme: MapTheme, visible: boolean): LayerSpecification[] {
  const th = THEMES[theme];
  const c = th.streets;
  const common = { source: STREETS_SOURCE, layout: { visibility: visible ? ('visible' as const) : ('none' as const) } };
  return [
    { ...common, id: 'streets-earth', type: 'fill', 'source-layer': 'earth', paint: { 'fill-color': th.land } },
    { ...common, id: 'streets-park', type: 'fill', 'source-layer': 'landuse', filter: ['in', ['get', 'kind'], ['literal', ['park', 'grass', 'garden', 'forest', 'wood', 'cemetery']]], paint: { 'fill-color': c.park } },
    { ...common, id: 'streets-water', type: 'fill', 'source-layer': 'water', paint: { 'fill-color': th.sea } },
    { ...common, id: 'streets-buildings', type: 'fill', 'source-layer': 'buildings', minzoom: 14, paint: { 'fill-color': c.building } },
    { ...common, id: 'streets-casing', type: 'line', 'source-layer': 'roads', minzoom: 13, paint: { 'line-color': c.casing, 'line-width': width(1.4) } },
    { ...common, id: 'streets-roads', type: 'line', 'source-layer': 'roads', filter: ['!', MAJOR], paint: { 'line-color': c.road, 'line-width': width(1) } },
    { ...common, id: 'streets-major', type: 'line', 'source-layer': 'roads', filter: MAJOR, paint: { 'line-color': c.major, 'line-width': width(1.3) } },
  ] as LayerSpecification[];
}

export const STREET_LAYER_IDS = streetLayers('normal', false).map((l) => l.id);

/** Restyles the street layers of a map for another theme. */
export function paintStreets(map: maplibregl.Map, theme: MapTheme): void {
  for (const layer of streetLayers(theme, true)) {
    if (!map.getLayer(layer.id) || !('paint' in layer) || !layer.paint) continue;
    for (const [k, v] of Object.entries(layer.paint)) map.setPaintProperty(layer.id, k as Parameters<maplibregl.Map['setPaintProperty']>[1], v);
  }
}
