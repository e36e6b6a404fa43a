import { createContext, useContext } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Outline, Provider } from './gcj';

/** Makes a style image for an id the style asks for (cluster counts, labels, avatars). */
export type ImageFactory = (id: string) => Promise<ImageData | HTMLImageElement | ImageBitmap | null> | ImageData | HTMLImageElement | ImageBitmap | null;

export interface MapApi {
  map: MapLibreMap;
  /** The provider whose tiles are shown (decides GCJ-02). */
  provider: Provider;
  outline?: Outline;
  /** Bumped when the projection of positions changes (provider or outline): layers redraw their data. */
  projection: number;
  /** WGS-84 → map coordinates (GCJ-02 inside China for Amap/Google). */
  toMap: (lng: number, lat: number) => [number, number];
  /** Map coordinates → WGS-84 (for what the user draws). */
  fromMap: (lng: number, lat: number) => [number, number];
  /** Registers a factory for style images whose id starts with prefix; returns the unregister function. */
  registerImages: (prefix: string, factory: ImageFactory) => () => void;
}

export const MapContext = createContext<MapApi | null>(null);

export function useMapApi(): MapApi {
  const api = useContext(MapContext);
  if (!api) throw new Error('map layer outside <MapView>');
  return api;
}
