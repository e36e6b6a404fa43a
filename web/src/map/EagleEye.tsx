// Eagle eye (spec §2 map tools): an overview map in the corner that follows the main map four zoom levels out,
// with the main view's extent drawn on it; clicking it moves the main map there. It shows the provider's rasters only
// while the main map has them (tiles): the main map alone probes the provider, so an unreachable one is never asked
// twice nor logged by the overview.
import { useEffect, useRef } from 'react';
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource } from 'maplibre-gl';
import { useMapApi } from './context';
import { BASEMAP_URL } from './style';
import { THEMES, type MapTheme } from './themes';

const ZOOM_OUT = 4;

export function EagleEye({ theme, tiles }: { theme: MapTheme; tiles: boolean }) {
  const { map } = useMapApi();
  const ref = useRef<HTMLDivElement>(null);
  const mini = useRef<maplibregl.Map>(undefined);
  const showTiles = useRef(tiles); // the rasters are shown once the style is in, then as tiles changes
  showTiles.current = tiles;

  useEffect(() => {
    const th = THEMES[theme];
    const base = map.getStyle().sources.base as maplibregl.RasterSourceSpecification;
    const m = new maplibregl.Map({
      container: ref.current!,
      style: {
        version: 8,
        sources: {
          offline: { type: 'geojson', data: new URL(BASEMAP_URL, location.origin).href },
          base: { ...base },
          extent: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
        },
        layers: [
          { id: 'sea', type: 'background', paint: { 'background-color': th.sea } },
          { id: 'land', type: 'fill', source: 'offline', paint: { 'fill-color': th.land, 'fill-outline-color': th.border } },
          { id: 'base', type: 'raster', source: 'base', layout: { visibility: 'none' }, paint: th.raster },
          { id: 'extent-fill', type: 'fill', source: 'extent', paint: { 'fill-color': '#1677ff', 'fill-opacity': 0.15 } },
          { id: 'extent-line', type: 'line', source: 'extent', paint: { 'line-color': '#1677ff', 'line-width': 2 } },
        ],
      },
      center: map.getCenter(),
      zoom: Math.max(0, map.getZoom() - ZOOM_OUT),
      interactive: false,
      attributionControl: false,
      fadeDuration: 0,
    });
    mini.current = m;
    const sync = () => {
      m.jumpTo({ center: map.getCenter(), zoom: Math.max(0, map.getZoom() - ZOOM_OUT) });
      const b = map.getBounds();
      const ring = [b.getSouthWest().toArray(), b.getNorthWest().toArray(), b.getNorthEast().toArray(), b.getSouthEast().toArray(), b.getSouthWest().toArray()];
      void (m.getSource('extent') as GeoJSONSource | undefined)?.setData({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} });
    };
    m.once('style.load', () => {
      sync();
      m.setLayoutProperty('base', 'visibility', showTiles.current ? 'visible' : 'none');
    });
    // A tile the provider refuses hides the overview's rasters until the main map's basemap state next changes.
    const onError = (e: maplibregl.ErrorEvent & { sourceId?: string }) => {
      if (e.sourceId === 'base') m.setLayoutProperty('base', 'visibility', 'none');
      else console.error(e.error);
    };
    m.on('error', onError);
    map.on('move', sync);
    const click = (e: MouseEvent) => {
      const r = ref.current!.getBoundingClientRect();
      map.easeTo({ center: m.unproject([e.clientX - r.left, e.clientY - r.top]) });
    };
    const el = ref.current!;
    el.addEventListener('click', click);
    return () => {
      map.off('move', sync);
      el.removeEventListener('click', click);
      m.remove();
    };
  }, [map, theme]);

  useEffect(() => {
    const m = mini.current;
    if (m?.isStyleLoaded()) m.setLayoutProperty('base', 'visibility', tiles ? 'visible' : 'none');
  }, [tiles]);

  return <div ref={ref} className="map-eagle" data-testid="eagle-eye" />;
}
