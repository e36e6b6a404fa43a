// A played-back track (spec §2 track): the whole path, the part already played, the stops, and the moving marker.
import { useEffect } from 'react';
import type { GeoJSONSource } from 'maplibre-gl';
import type { Feature } from 'geojson';
import type { TrackStop } from '../../shared/geo/api';
import type { Frame } from '../../shared/geo/playback';
import type { TrackPoint } from '../../shared/geo/units';
import { useMapApi } from '../context';
import { removeAll } from './shared';

const LAYERS = ['track-path', 'track-played', 'track-stops', 'track-ends', 'track-head', 'track-head-arrow'];
const SOURCES = ['track', 'track-head'];

export interface TrackLayerProps {
  points: readonly TrackPoint[];
  stops: readonly TrackStop[];
  frame?: Frame;
  follow: boolean;
}

export function TrackLayer({ points, stops, frame, follow }: TrackLayerProps) {
  const { map, toMap, projection } = useMapApi();

  useEffect(() => {
    map.addSource('track', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addSource('track-head', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({ id: 'track-path', type: 'line', source: 'track', filter: ['==', ['get', 'kind'], 'path'], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#8c8c8c', 'line-width': 4, 'line-opacity': 0.7 } });
    map.addLayer({ id: 'track-played', type: 'line', source: 'track-head', filter: ['==', ['get', 'kind'], 'played'], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#1677ff', 'line-width': 5 } });
    map.addLayer({ id: 'track-stops', type: 'circle', source: 'track', filter: ['==', ['get', 'kind'], 'stop'], paint: { 'circle-radius': 7, 'circle-color': '#faad14', 'circle-stroke-width': 2, 'circle-stroke-color': '#fff' } });
    map.addLayer({
      id: 'track-ends',
      type: 'circle',
      source: 'track',
      filter: ['in', ['get', 'kind'], ['literal', ['start', 'end']]],
      paint: { 'circle-radius': 6, 'circle-color': ['match', ['get', 'kind'], 'start', '#2fb344', '#f5222d'], 'circle-stroke-width': 2, 'circle-stroke-color': '#fff' },
    });
    map.addLayer({ id: 'track-head', type: 'circle', source: 'track-head', filter: ['==', ['get', 'kind'], 'head'], paint: { 'circle-radius': 10, 'circle-color': '#1677ff', 'circle-stroke-width': 3, 'circle-stroke-color': '#fff' } });
    map.addLayer({
      id: 'track-head-arrow',
      type: 'symbol',
      source: 'track-head',
      filter: ['==', ['get', 'kind'], 'head'],
      layout: { 'icon-image': 'tf-arrow', 'icon-rotate': ['get', 'dir'], 'icon-rotation-alignment': 'map', 'icon-allow-overlap': true, 'icon-offset': [0, -16] },
    });
    return () => removeAll(map, LAYERS, SOURCES);
  }, [map]);

  useEffect(() => {
    const coords = points.map((p) => toMap(p.lng, p.lat));
    const features: Feature[] = [];
    if (coords.length > 1) features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: coords }, properties: { kind: 'path' } });
    if (coords.length) {
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: coords[0]! }, properties: { kind: 'start' } });
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: coords[coords.length - 1]! }, properties: { kind: 'end' } });
    }
    for (const s of stops) features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: toMap(s.lng, s.lat) }, properties: { kind: 'stop' } });
    void (map.getSource('track') as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
    if (coords.length > 1) {
      const lngs = coords.map((c) => c[0]);
      const lats = coords.map((c) => c[1]);
      map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)], { padding: 80, maxZoom: 17, duration: 0 });
    } else if (coords.length === 1) map.jumpTo({ center: coords[0], zoom: 16 });
  }, [map, points, stops, toMap, projection]);

  useEffect(() => {
    const features: Feature[] = [];
    if (frame) {
      const head = toMap(frame.lng, frame.lat);
      const played = points.slice(0, frame.point).map((p) => toMap(p.lng, p.lat));
      played.push(head);
      if (played.length > 1) features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: played }, properties: { kind: 'played' } });
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: head }, properties: { kind: 'head', dir: frame.direction } });
      if (follow) map.jumpTo({ center: head });
    }
    void (map.getSource('track-head') as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
  }, [map, frame, points, follow, toMap]);

  return null;
}
