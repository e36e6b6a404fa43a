// Geofences (spec §2 map sub-tabs): "in" fences green, "out" fences red; circles drawn from centre and radius.
import { useEffect } from 'react';
import type { GeoJSONSource } from 'maplibre-gl';
import type { Feature, FeatureCollection, Polygon } from 'geojson';
import { circle } from '@turf/turf';
import type { Fence } from '../../shared/geo/api';
import { useMapApi } from '../context';
import { mapCoords, removeAll, setVisible } from './shared';

const SRC = 'fences';
const LAYERS = ['fences-fill', 'fences-line', 'fences-selected'];
export const FENCE_COLORS = { in: '#2fb344', out: '#f5222d' } as const;

/** A fence as the polygon to draw (WGS-84). */
export function fencePolygon(f: Fence): Polygon | null {
  if (f.shape === 'circle' && f.geometry.type === 'Point') {
    return circle(f.geometry.coordinates as [number, number], (f.radius ?? 0) / 1000, { steps: 64, units: 'kilometers' }).geometry;
  }
  return f.geometry.type === 'Polygon' ? f.geometry : null;
}

export function FencesLayer({ fences, selected, visible = true }: { fences: Fence[]; selected?: string; visible?: boolean }) {
  const { map, toMap, projection } = useMapApi();

  useEffect(() => {
    map.addSource(SRC, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    const color = ['match', ['get', 'type'], 'out', FENCE_COLORS.out, FENCE_COLORS.in] as unknown as string;
    map.addLayer({ id: 'fences-fill', type: 'fill', source: SRC, paint: { 'fill-color': color, 'fill-opacity': 0.12 } }, firstTerminalLayer(map));
    map.addLayer({ id: 'fences-line', type: 'line', source: SRC, paint: { 'line-color': color, 'line-width': 2, 'line-dasharray': [3, 2] } }, firstTerminalLayer(map));
    map.addLayer(
      { id: 'fences-selected', type: 'line', source: SRC, filter: ['==', ['get', 'selected'], 1], paint: { 'line-color': '#faad14', 'line-width': 4 } },
      firstTerminalLayer(map),
    );
    return () => removeAll(map, LAYERS, [SRC]);
  }, [map]);

  useEffect(() => {
    const features: Feature[] = [];
    for (const f of fences) {
      const poly = fencePolygon(f);
      if (!poly) continue;
      features.push({
        type: 'Feature',
        id: Number(f.fenceid) || undefined,
        geometry: mapCoords(poly, toMap),
        properties: { fenceid: f.fenceid, name: f.name, type: f.type, selected: f.fenceid === selected ? 1 : 0 },
      });
    }
    void (map.getSource(SRC) as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features } as FeatureCollection);
  }, [map, fences, selected, toMap, projection]);

  useEffect(() => setVisible(map, LAYERS, visible), [map, visible]);
  return <span hidden data-testid="fence-layer" data-count={fences.length} />;
}

/** Feature layers go under the terminal markers. */
export function firstTerminalLayer(map: { getLayer: (id: string) => unknown }): string | undefined {
  return map.getLayer('terminals-cluster') ? 'terminals-cluster' : undefined;
}
