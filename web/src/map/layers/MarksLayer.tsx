// Markers of type point, line and shape (spec §2 map tools "markers"), in their colours.
import { useEffect } from 'react';
import type { GeoJSONSource, MapLayerMouseEvent } from 'maplibre-gl';
import type { Feature } from 'geojson';
import type { Mark } from '../../shared/geo/api';
import { useMapApi } from '../context';
import { pinImage } from '../images';
import { firstTerminalLayer } from './FencesLayer';
import { mapCoords, removeAll, setVisible } from './shared';

const SRC = 'marks';
const LAYERS = ['marks-fill', 'marks-line', 'marks-point'];
export const DEFAULT_MARK_COLOR = '#722ed1';

export function MarksLayer({ marks, onSelect, visible = true }: { marks: Mark[]; onSelect?: (id: string) => void; visible?: boolean }) {
  const { map, toMap, projection, registerImages } = useMapApi();

  useEffect(() => registerImages('tf-pin-', (id) => pinImage(id.slice('tf-pin-'.length))), [registerImages]);

  useEffect(() => {
    map.addSource(SRC, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    const before = firstTerminalLayer(map);
    map.addLayer({ id: 'marks-fill', type: 'fill', source: SRC, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.2 } }, before);
    map.addLayer(
      { id: 'marks-line', type: 'line', source: SRC, filter: ['!=', ['geometry-type'], 'Point'], paint: { 'line-color': ['get', 'color'], 'line-width': 3 } },
      before,
    );
    map.addLayer(
      {
        id: 'marks-point',
        type: 'symbol',
        source: SRC,
        filter: ['==', ['geometry-type'], 'Point'],
        layout: { 'icon-image': ['concat', 'tf-pin-', ['get', 'color']], 'icon-anchor': 'bottom', 'icon-allow-overlap': true },
      },
      before,
    );
    return () => removeAll(map, LAYERS, [SRC]);
  }, [map]);

  useEffect(() => {
    const features: Feature[] = marks.map((m) => ({
      type: 'Feature',
      geometry: mapCoords(m.geometry, toMap),
      properties: { id: m.id, name: m.name, color: m.color || DEFAULT_MARK_COLOR },
    }));
    void (map.getSource(SRC) as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
  }, [map, marks, toMap, projection]);

  useEffect(() => {
    if (!onSelect) return;
    const click = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.properties?.id;
      if (id) onSelect(String(id));
    };
    for (const l of LAYERS) map.on('click', l, click);
    return () => LAYERS.forEach((l) => map.off('click', l, click));
  }, [map, onSelect]);

  useEffect(() => setVisible(map, LAYERS, visible), [map, visible]);
  return <span hidden data-testid="mark-layer" data-count={marks.length} />;
}
