import type { Map as MapLibreMap } from 'maplibre-gl';

/** Removes layers then sources, ignoring the ones already gone (the map may be torn down first). */
export function removeAll(map: MapLibreMap, layers: string[], sources: string[]): void {
  try {
    for (const id of layers) if (map.getLayer(id)) map.removeLayer(id);
    for (const id of sources) if (map.getSource(id)) map.removeSource(id);
  } catch {
    /* map removed */
  }
}

export function setVisible(map: MapLibreMap, layers: string[], visible: boolean): void {
  for (const id of layers) if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', visible ? 'visible' : 'none');
}

/** Maps every position of a geometry through fn. */
export function mapCoords<G extends { type: string; coordinates: unknown }>(g: G, fn: (lng: number, lat: number) => [number, number]): G {
  const walk = (c: unknown): unknown => (typeof (c as number[])[0] === 'number' ? fn((c as number[])[0]!, (c as number[])[1]!) : (c as unknown[]).map(walk));
  return { ...g, coordinates: walk(g.coordinates) };
}
