// The open job tickets on the map: a pin per job with a position, coloured by its state; a click selects it. In
// pick mode a click on the map reports the position instead (a new ticket's place).
import { useEffect } from 'react';
import type { GeoJSONSource, MapLayerMouseEvent, MapMouseEvent } from 'maplibre-gl';
import type { Feature } from 'geojson';
import { useMapApi } from '../../../map/context';
import { pinImage } from '../../../map/images';
import { removeAll } from '../../../map/layers/shared';
import { TERMINAL_LAYERS } from '../../../map/layers/TerminalsLayer';
import type { Job } from '../api';

const SRC = 'jobs';
const LAYERS = ['jobs-point', 'jobs-pick'];
/** Pin colours by job state (readable on every map theme). */
export const PIN_COLOR: Record<number, string> = { 0: '#d4a106', 1: '#1677ff', 2: '#cf1322', 3: '#13c2c2', 4: '#389e0d' };
const PICK_COLOR = '#722ed1';

export function JobsLayer({
  jobs,
  pick,
  onSelect,
  onPick,
}: {
  jobs: Job[];
  pick?: { lat: number; lng: number } | null;
  onSelect?: (jobId: string) => void;
  onPick?: (lat: number, lng: number) => void;
}) {
  const { map, toMap, fromMap, projection, registerImages } = useMapApi();

  useEffect(() => registerImages('tf-jobpin-', (id) => pinImage(id.slice('tf-jobpin-'.length))), [registerImages]);

  useEffect(() => {
    map.addSource(SRC, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: 'jobs-point',
      type: 'symbol',
      source: SRC,
      filter: ['!=', ['get', 'pick'], true],
      layout: { 'icon-image': ['concat', 'tf-jobpin-', ['get', 'color']], 'icon-anchor': 'bottom', 'icon-allow-overlap': true },
    });
    map.addLayer({
      id: 'jobs-pick',
      type: 'symbol',
      source: SRC,
      filter: ['==', ['get', 'pick'], true],
      layout: { 'icon-image': `tf-jobpin-${PICK_COLOR}`, 'icon-anchor': 'bottom', 'icon-allow-overlap': true },
    });
    return () => removeAll(map, LAYERS, [SRC]);
  }, [map]);

  useEffect(() => {
    const features: Feature[] = jobs
      .filter((j) => j.lat !== null && j.lng !== null)
      .map((j) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: toMap(j.lng!, j.lat!) },
        properties: { id: j.jobId, color: PIN_COLOR[j.status] ?? PIN_COLOR[0] },
      }));
    if (pick) features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: toMap(pick.lng, pick.lat) }, properties: { pick: true } });
    void (map.getSource(SRC) as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
  }, [map, jobs, pick, toMap, projection]);

  useEffect(() => {
    if (!onSelect) return;
    const click = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.properties?.id;
      if (id) onSelect(String(id));
    };
    map.on('click', 'jobs-point', click);
    return () => {
      map.off('click', 'jobs-point', click);
    };
  }, [map, onSelect]);

  useEffect(() => {
    if (!onPick) return;
    const click = (e: MapMouseEvent) => {
      // A click on a ticket's pin or a terminal belongs to them.
      const hit = ['jobs-point', ...TERMINAL_LAYERS].filter((l) => map.getLayer(l));
      if (hit.length && map.queryRenderedFeatures(e.point, { layers: hit }).length) return;
      const [lng, lat] = fromMap(e.lngLat.lng, e.lngLat.lat);
      onPick(Math.round(lat * 1e6) / 1e6, Math.round(lng * 1e6) / 1e6);
    };
    map.getCanvas().style.cursor = 'crosshair';
    map.on('click', click);
    return () => {
      map.off('click', click);
      map.getCanvas().style.cursor = '';
    };
  }, [map, fromMap, onPick]);

  return null;
}
