// Patrol points on the one map: each point's radius as a disc, the point coloured by its state (a plain point,
// or an order's point: not punched, punched, punched late), an optional route line through them in order, and a
// click on the map that picks a position (the point dialog).
import { useEffect } from 'react';
import type { GeoJSONSource, MapLayerMouseEvent, MapMouseEvent } from 'maplibre-gl';
import type { Feature } from 'geojson';
import { useMapApi } from '../../../map/context';
import { removeAll } from '../../../map/layers/shared';

export interface MapPoint {
  id: number;
  name: string;
  lat: number;
  lng: number;
  radius: number;
  /** undefined: a plain point; 0 not punched, 1 punched, 2 punched late. */
  state?: number;
  selected?: boolean;
}

const SRC = 'patrol-points';
const LINE_SRC = 'patrol-route';
const LAYERS = ['patrol-radius', 'patrol-route-line', 'patrol-point'];
export const STATE_COLORS = ['#8c8c8c', '#389e0d', '#d46b08'];
const PLAIN = '#1677ff';

/** A disc of radius metres around a position, as a 32-sided polygon in degrees. */
export function disc(lat: number, lng: number, radius: number): [number, number][] {
  const out: [number, number][] = [];
  const dLat = radius / 111_320;
  const dLng = radius / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  for (let i = 0; i <= 32; i++) {
    const a = (i / 32) * 2 * Math.PI;
    out.push([lng + dLng * Math.cos(a), lat + dLat * Math.sin(a)]);
  }
  return out;
}

export function PointsLayer({ points, route, onSelect, onPick }: { points: MapPoint[]; route?: boolean; onSelect?: (id: number) => void; onPick?: (lat: number, lng: number) => void }) {
  const { map, toMap, fromMap, projection } = useMapApi();

  useEffect(() => {
    map.addSource(SRC, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addSource(LINE_SRC, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({ id: 'patrol-radius', type: 'fill', source: SRC, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.15 } });
    map.addLayer({ id: 'patrol-route-line', type: 'line', source: LINE_SRC, paint: { 'line-color': '#1677ff', 'line-width': 3, 'line-dasharray': [2, 1] } });
    map.addLayer({
      id: 'patrol-point',
      type: 'circle',
      source: SRC,
      filter: ['==', ['geometry-type'], 'Point'],
      paint: {
        'circle-color': ['get', 'color'],
        'circle-radius': ['case', ['get', 'selected'], 9, 6],
        'circle-stroke-color': '#fff',
        'circle-stroke-width': 2,
      },
    });
    return () => removeAll(map, LAYERS, [SRC, LINE_SRC]);
  }, [map]);

  useEffect(() => {
    const features: Feature[] = [];
    for (const p of points) {
      const color = p.state === undefined ? PLAIN : (STATE_COLORS[p.state] ?? PLAIN);
      features.push({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [disc(p.lat, p.lng, p.radius).map(([x, y]) => toMap(x, y))] },
        properties: { id: p.id, color },
      });
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: toMap(p.lng, p.lat) }, properties: { id: p.id, name: p.name, color, selected: !!p.selected } });
    }
    void (map.getSource(SRC) as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
    const line: Feature[] =
      route && points.length > 1 ? [{ type: 'Feature', geometry: { type: 'LineString', coordinates: points.map((p) => toMap(p.lng, p.lat)) }, properties: {} }] : [];
    void (map.getSource(LINE_SRC) as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features: line });
  }, [map, points, route, toMap, projection]);

  useEffect(() => {
    if (!onSelect) return;
    const click = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.properties?.id;
      if (id !== undefined) onSelect(Number(id));
    };
    map.on('click', 'patrol-point', click);
    const enter = () => (map.getCanvas().style.cursor = 'pointer');
    const leave = () => (map.getCanvas().style.cursor = '');
    map.on('mouseenter', 'patrol-point', enter);
    map.on('mouseleave', 'patrol-point', leave);
    return () => {
      map.off('click', 'patrol-point', click);
      map.off('mouseenter', 'patrol-point', enter);
      map.off('mouseleave', 'patrol-point', leave);
    };
  }, [map, onSelect]);

  useEffect(() => {
    if (!onPick) return;
    const pick = (e: MapMouseEvent) => {
      const [lng, lat] = fromMap(e.lngLat.lng, e.lngLat.lat);
      onPick(Math.round(lat * 1e6) / 1e6, Math.round(lng * 1e6) / 1e6);
    };
    map.on('click', pick);
    return () => {
      map.off('click', pick);
    };
  }, [map, onPick, fromMap]);

  useEffect(() => {
    if (points.length === 0) return;
    const ll = points.map((p) => toMap(p.lng, p.lat));
    const lngs = ll.map((p) => p[0]);
    const lats = ll.map((p) => p[1]);
    map.fitBounds(
      [
        [Math.min(...lngs), Math.min(...lats)],
        [Math.max(...lngs), Math.max(...lats)],
      ],
      { padding: 60, maxZoom: 17, duration: 0 },
    );
    // only when the set of points changes, not on every state change
  }, [map, points.map((p) => p.id).join(',')]); // eslint-disable-line react-hooks/exhaustive-deps

  return <span hidden data-testid="patrol-point-layer" data-count={points.length} />;
}
