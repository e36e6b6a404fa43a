// The map's style: the bundled offline basemap (country outlines, always underneath, so a failed tile never
// leaves a blank page) and the provider's raster layers above it. No glyphs: nothing here needs a font server.
import type { StyleSpecification } from 'maplibre-gl';
import type { Provider } from './gcj';
import { PROVIDERS, tileUrls } from './providers';
import { THEMES, type MapTheme } from './themes';

export const BASEMAP_URL = '/map/countries.geojson';
export const RASTER_LAYERS = ['base', 'satellite', 'roadnet'] as const;
export type RasterLayer = (typeof RASTER_LAYERS)[number];
/** Layers added by the feature layers go below this one (kept on top: nothing). */
export const FIRST_FEATURE_LAYER = undefined;

export function rasterSource(provider: Provider, overlay: 'road' | 'satellite' | 'roadnet', key: string | undefined, language: string) {
  const def = PROVIDERS[provider];
  const tiles = tileUrls(provider, overlay, key, language);
  return { type: 'raster' as const, tiles: tiles.length ? tiles : ['data:,'], tileSize: 256, maxzoom: def.maxzoom, attribution: def.attribution };
}

/** rasters false starts with the provider's layers hidden (no tile is requested). */
export function buildStyle(opts: { provider: Provider; key?: string; language: string; theme: MapTheme; origin: string; rasters?: boolean }): StyleSpecification {
  const th = THEMES[opts.theme];
  return {
    version: 8,
    sources: {
      offline: { type: 'geojson', data: new URL(BASEMAP_URL, opts.origin).href, attribution: 'Natural Earth' },
      base: rasterSource(opts.provider, 'road', opts.key, opts.language),
      satellite: rasterSource(opts.provider, 'satellite', opts.key, opts.language),
      roadnet: rasterSource(opts.provider, 'roadnet', opts.key, opts.language),
    },
    layers: [
      { id: 'offline-sea', type: 'background', paint: { 'background-color': th.sea } },
      { id: 'offline-land', type: 'fill', source: 'offline', paint: { 'fill-color': th.land } },
      { id: 'offline-border', type: 'line', source: 'offline', paint: { 'line-color': th.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 10, 1.6] } },
      { id: 'base', type: 'raster', source: 'base', layout: { visibility: opts.rasters === false ? 'none' : 'visible' }, paint: th.raster },
      { id: 'satellite', type: 'raster', source: 'satellite', layout: { visibility: 'none' } },
      { id: 'roadnet', type: 'raster', source: 'roadnet', layout: { visibility: 'none' }, paint: { 'raster-opacity': opts.provider === 'osm' ? 0.55 : 1 } },
    ],
  };
}
