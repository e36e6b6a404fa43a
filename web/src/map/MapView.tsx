// The one map component (spec §2; DESIGN §7): MapLibre with the provider's raster tiles over a bundled offline
// basemap (and the server's street map, streets.ts, when the tiles cannot be reached), the map theme, GCJ-02 for
// Amap/Google inside China, and a context its layer components use. Imported only by the map route chunks, so
// MapLibre never lands in the console's entry chunk.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MapContext, type ImageFactory, type MapApi } from './context';
import { fromDisplay, loadOutline, needsGcj, toDisplay, type Outline, type Provider } from './gcj';
import { chooseProvider } from './providers';
import { probe, probeUrl, REPROBE_MS, rememberReachable, unreachableSince } from './basemap';
import { buildStyle, rasterSource, RASTER_LAYERS } from './style';
import { THEMES, type MapTheme } from './themes';
import { fetchStreets, paintStreets, registerStreetsProtocol, STREET_LAYER_IDS, streetLayers, STREETS_SOURCE, streetsSource, type StreetsInfo } from './streets';
import './map.css';

maplibregl.setWorkerUrl(workerUrl);
// The map's workers start with this chunk and outlive each map: a visit to a map screen does not wait for them
// to load their script again.
maplibregl.prewarm();

export type BasemapState = 'loading' | 'tiles' | 'offline';

export const DEFAULT_CENTER: [number, number] = [28.97, 41.01];
export const DEFAULT_ZOOM = 11;

export interface MapViewProps {
  /** The provider the user chose (settings map type). */
  provider: Provider;
  /** The client config's maps key. */
  mapsKey?: unknown;
  language: string;
  theme: MapTheme;
  satellite?: boolean;
  roadNet?: boolean;
  initialCenter?: [number, number];
  initialZoom?: number;
  /** The chosen provider needs a key and has none ('no valid map key'); OSM is shown instead. */
  onNoKey?: (requested: Provider) => void;
  /** Google tiles cannot be reached ('Google map inaccessible', offer Amap). */
  onGoogleInaccessible?: () => void;
  onBasemap?: (state: BasemapState) => void;
  /** The map is ready (or gone): for panels outside the map that need it, such as the data list. */
  onReady?: (api: MapApi | null) => void;
  children?: ReactNode;
  testId?: string;
  className?: string;
  interactive?: boolean;
}

export function MapView(props: MapViewProps) {
  const { provider: requested, mapsKey, language, theme, satellite = false, roadNet = false } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<maplibregl.Map>();
  const [outline, setOutline] = useState<Outline>();
  const [basemap, setBasemap] = useState<BasemapState>(() => (unreachableSince(chooseProvider(requested, mapsKey).provider) === undefined ? 'loading' : 'offline'));
  const factories = useRef(new Map<string, ImageFactory>());
  const choice = useMemo(() => chooseProvider(requested, mapsKey), [requested, mapsKey]);
  const provider = choice.provider;
  const cb = useRef(props);
  cb.current = props;
  // The server's street map: undefined until the server said whether it has one.
  const [streets, setStreets] = useState<StreetsInfo>();
  const [streetsFailed, setStreetsFailed] = useState(false);
  const [noticeClosed, setNoticeClosed] = useState(false);
  const { t } = useTranslation('map');

  // Create the map once.
  useEffect(() => {
    const el = ref.current!;
    const m = new maplibregl.Map({
      container: el,
      // A provider known to be unreachable is not asked for tiles at all (the basemap effect probes it).
      style: buildStyle({ provider, key: choice.key, language, theme, origin: location.origin, rasters: unreachableSince(provider) === undefined }),
      center: props.initialCenter ?? DEFAULT_CENTER,
      zoom: props.initialZoom ?? DEFAULT_ZOOM,
      attributionControl: { compact: true },
      // No preserveDrawingBuffer: with software GL it costs a full-frame copy on every frame.
      canvasContextAttributes: { preserveDrawingBuffer: false, antialias: false },
      interactive: props.interactive ?? true,
      fadeDuration: 0,
    });
    m.setMissingStyleImageResolver(async (id) => {
      for (const [prefix, make] of factories.current) {
        if (!id.startsWith(prefix)) continue;
        const img = await make(id);
        if (img && !m.hasImage(id)) m.addImage(id, img, { pixelRatio: 2 });
        return;
      }
    });
    (el as HTMLDivElement & { __map?: maplibregl.Map }).__map = m;
    // The rasters are asked for as soon as the style is in, before the basemap effect below listens (a map with no
    // error listener logs each failed tile on the console): a tile that fails in between is left to that effect's
    // probe of the provider; the sources' errors are theirs to judge, any other is logged as MapLibre would.
    m.on('error', (e: maplibregl.ErrorEvent & { sourceId?: string }) => {
      if (!e.sourceId || (!(RASTER_LAYERS as readonly string[]).includes(e.sourceId) && e.sourceId !== STREETS_SOURCE)) console.error(e.error);
    });
    let alive = true;
    // Layers are added once the style is in, not on 'load': that waits for every tile, and tiles that never
    // answer (a closed network) would hold the terminals back until the basemap gives up on them.
    m.once('style.load', () => alive && setMap(m));
    const ro = new ResizeObserver(() => m.resize());
    ro.observe(el);
    return () => {
      alive = false;
      ro.disconnect();
      m.remove();
      setMap(undefined);
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Provider, key or language changed: new tile URLs on the same sources.
  const firstProvider = useRef(true);
  useEffect(() => {
    if (!map) return;
    if (firstProvider.current) {
      firstProvider.current = false;
      return;
    }
    for (const [id, overlay] of [['base', 'road'], ['satellite', 'satellite'], ['roadnet', 'roadnet']] as const) {
      (map.getSource(id) as maplibregl.RasterTileSource | undefined)?.setTiles(rasterSource(provider, overlay, choice.key, language).tiles);
    }
    map.setPaintProperty('roadnet', 'raster-opacity', provider === 'osm' ? 0.55 : 1);
  }, [map, provider, choice.key, language]);

  useEffect(() => {
    if (choice.noKey) cb.current.onNoKey?.(choice.requested);
  }, [choice.noKey, choice.requested]);

  // GCJ-02 needs the China outline.
  useEffect(() => {
    if (!needsGcj(provider) || outline) return;
    let alive = true;
    loadOutline().then((o) => alive && setOutline(o)).catch(() => {});
    return () => {
      alive = false;
    };
  }, [provider, outline]);

  // Offline basemap: when the provider cannot be reached (a quick probe, or the first tile error before any tile
  // loaded), hide the raster layers and let the bundled country outlines show; remember it, so the next visit starts
  // offline without asking the tiles again, and probe now and then for the provider coming back.
  useEffect(() => {
    if (!map) return;
    let alive = true;
    let loaded = 0;
    let state: BasemapState = 'loading';
    let retry: ReturnType<typeof setTimeout> | undefined;
    const url = probeUrl(provider, choice.key, language);
    const set = (s: BasemapState) => {
      if (s === state) return;
      state = s;
      setBasemap(s);
      cb.current.onBasemap?.(s);
    };
    const showRasters = (on: boolean) => {
      map.setLayoutProperty('base', 'visibility', on ? 'visible' : 'none');
      map.setLayoutProperty('satellite', 'visibility', on && cb.current.satellite ? 'visible' : 'none');
      map.setLayoutProperty('roadnet', 'visibility', on && cb.current.roadNet ? 'visible' : 'none');
    };
    const reprobe = (after: number) => {
      clearTimeout(retry);
      retry = setTimeout(() => {
        void probe(url).then((ok) => {
          if (!alive) return;
          if (ok) tryTiles();
          else {
            rememberReachable(provider, false);
            reprobe(REPROBE_MS);
          }
        });
      }, after);
    };
    const goOffline = (discovered: boolean) => {
      if (state === 'offline') return;
      set('offline');
      showRasters(false);
      if (discovered) {
        rememberReachable(provider, false);
        if (provider === 'google') cb.current.onGoogleInaccessible?.();
      }
      reprobe(REPROBE_MS);
    };
    function tryTiles() {
      loaded = 0;
      state = 'loading';
      setBasemap('loading');
      showRasters(true);
      void probe(url).then((ok) => alive && !ok && state === 'loading' && goOffline(true));
    }
    const onError = (e: maplibregl.ErrorEvent & { sourceId?: string }) => {
      if (!e.sourceId || !(RASTER_LAYERS as readonly string[]).includes(e.sourceId)) return;
      if (loaded === 0 && state === 'loading') goOffline(true);
    };
    const onData = (e: maplibregl.MapSourceDataEvent) => {
      if (e.sourceId !== 'base' || !e.tile || state === 'offline') return;
      if (loaded++ === 0) rememberReachable(provider, true);
      set('tiles');
    };
    map.on('error', onError);
    map.on('sourcedata', onData);
    const since = unreachableSince(provider);
    if (since === undefined) tryTiles();
    else {
      // Known unreachable: offline at once; probed again when the last probe is old enough.
      goOffline(false);
      reprobe(Math.max(0, since + REPROBE_MS - Date.now()));
    }
    return () => {
      alive = false;
      clearTimeout(retry);
      map.off('error', onError);
      map.off('sourcedata', onData);
    };
  }, [map, provider, choice.key]); // eslint-disable-line react-hooks/exhaustive-deps

  // The server's street map, added (hidden) under the rasters when the server has one; an archive that fails to
  // read is said once, like a missing one.
  useEffect(() => {
    if (!map) return;
    let alive = true;
    const onError = (e: maplibregl.ErrorEvent & { sourceId?: string }) => e.sourceId === STREETS_SOURCE && setStreetsFailed(true);
    map.on('error', onError);
    void fetchStreets().then((info) => {
      if (!alive) return;
      if (info.archive) {
        registerStreetsProtocol();
        map.addSource(STREETS_SOURCE, streetsSource(info, location.origin));
        for (const layer of streetLayers(cb.current.theme, false)) map.addLayer(layer, 'base');
      }
      setStreets(info);
    });
    return () => {
      alive = false;
      map.off('error', onError);
    };
  }, [map]);

  // The street map shows where the provider's rasters do not: only offline (no request for it otherwise).
  useEffect(() => {
    if (!map || !streets?.archive) return;
    for (const id of STREET_LAYER_IDS) map.setLayoutProperty(id, 'visibility', basemap === 'offline' ? 'visible' : 'none');
  }, [map, streets, basemap]);

  // Theme and overlays.
  useEffect(() => {
    if (!map) return;
    const th = THEMES[theme];
    map.setPaintProperty('offline-sea', 'background-color', th.sea);
    map.setPaintProperty('offline-land', 'fill-color', th.land);
    map.setPaintProperty('offline-border', 'line-color', th.border);
    for (const layer of ['base', 'satellite']) for (const [k, v] of Object.entries(th.raster)) map.setPaintProperty(layer, k as 'raster-saturation', v);
    paintStreets(map, theme);
  }, [map, theme]);

  useEffect(() => {
    if (!map || basemap === 'offline') return;
    map.setLayoutProperty('satellite', 'visibility', satellite ? 'visible' : 'none');
    map.setLayoutProperty('roadnet', 'visibility', roadNet ? 'visible' : 'none');
  }, [map, satellite, roadNet, basemap]);

  const api = useMemo<MapApi | null>(() => {
    if (!map) return null;
    return {
      map,
      provider,
      outline,
      projection: (needsGcj(provider) ? 1 : 0) + (outline ? 2 : 0) + (provider === 'google' ? 4 : 0),
      toMap: (lng, lat) => toDisplay(provider, lng, lat, outline),
      fromMap: (lng, lat) => fromDisplay(provider, lng, lat, outline),
      registerImages: (prefix, factory) => {
        factories.current.set(prefix, factory);
        return () => factories.current.delete(prefix);
      },
    };
  }, [map, provider, outline]);

  useEffect(() => {
    cb.current.onReady?.(api);
  }, [api]);

  // Offline without streets of its own, the map says once (closable) what gives it streets: the setting, not a
  // flood of tile errors. Not while the server's street map shows.
  const notice = basemap === 'offline' && streets && (streetsFailed ? 'failed' : streets.archive ? undefined : 'missing');

  return (
    <div
      ref={ref}
      className={`map-view ${props.className ?? ''}`}
      data-testid={props.testId ?? 'map'}
      data-basemap={basemap}
      data-provider={provider}
      data-requested-provider={requested}
      data-theme={theme}
      data-ready={map ? '1' : '0'}
      data-streets={streets ? (streets.archive ? 'archive' : 'none') : 'loading'}
    >
      {api && <MapContext.Provider value={api}>{props.children}</MapContext.Provider>}
      {notice && !noticeClosed && (
        <div className="map-overlay map-notice" role="status" data-testid="map-streets-notice" data-notice={notice}>
          <span>{t(`streets.${notice}`)}</span>
          <button type="button" className="map-notice-close" aria-label={t('streets.close')} onClick={() => setNoticeClosed(true)}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
