// The SOS map (spec §2 map tools): terminals with an open SOS alarm, pulsing red, at the terminal's position (or
// where the alarm was raised when the terminal has none).
import { useEffect } from 'react';
import type { GeoJSONSource } from 'maplibre-gl';
import type { Feature } from 'geojson';
import { useDirectory } from '../../shared/directory/store';
import { useOpenSosByTerminal } from '../../shared/alarms/store';
import { useMapApi } from '../context';
import { firstTerminalLayer } from './FencesLayer';
import { removeAll } from './shared';

const LAYERS = ['sos-pulse', 'sos-core'];

export function SosLayer({ visible }: { visible: boolean }) {
  const { map, toMap, projection } = useMapApi();
  const sos = useOpenSosByTerminal();

  useEffect(() => {
    if (!visible) return;
    map.addSource('sos', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    const before = firstTerminalLayer(map);
    map.addLayer({ id: 'sos-pulse', type: 'circle', source: 'sos', paint: { 'circle-radius': 26, 'circle-color': '#f5222d', 'circle-opacity': 0.25, 'circle-blur': 0.4 } }, before);
    map.addLayer({ id: 'sos-core', type: 'circle', source: 'sos', paint: { 'circle-radius': 14, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#f5222d', 'circle-stroke-width': 3 } }, before);
    let t0 = performance.now();
    let raf = requestAnimationFrame(function pulse(now) {
      const k = ((now - t0) % 1400) / 1400;
      if (map.getLayer('sos-pulse')) {
        map.setPaintProperty('sos-pulse', 'circle-radius', 14 + 22 * k);
        map.setPaintProperty('sos-pulse', 'circle-opacity', 0.45 * (1 - k));
      }
      raf = requestAnimationFrame(pulse);
    });
    return () => {
      cancelAnimationFrame(raf);
      t0 = 0;
      removeAll(map, LAYERS, ['sos']);
    };
  }, [map, visible]);

  useEffect(() => {
    if (!visible) return;
    const terminals = useDirectory.getState().terminals;
    const features: Feature[] = [];
    for (const a of Object.values(sos)) {
      const t = terminals[a.msId];
      const lng = t?.lng ?? a.lng;
      const lat = t?.lat ?? a.lat;
      if (typeof lng !== 'number' || typeof lat !== 'number') continue;
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: toMap(lng, lat) }, properties: { msId: a.msId } });
    }
    void (map.getSource('sos') as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
    if (features.length) {
      const c = features.map((f) => (f.geometry as { coordinates: number[] }).coordinates);
      const lngs = c.map((x) => x[0]!);
      const lats = c.map((x) => x[1]!);
      map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)], { padding: 120, maxZoom: 15 });
    }
  }, [map, sos, visible, toMap, projection]);

  return <span hidden data-testid="sos-layer" data-count={visible ? Object.keys(sos).length : 0} />;
}
