// One repaint per refresh of a clustered source. A clustered GeoJSON source reloads every tile in view on each
// update, and MapLibre repaints on each of its events: once when the worker has the new data (nothing new to draw
// yet), then as the tiles come back one by one. With software GL (no GPU: a virtual desktop, the benchmark) a repaint
// of the full canvas costs 30–60 ms of the main thread whatever is drawn, so four of them per 250 ms update were most
// of the map's frame time (web/bench/map.bench.mjs). The gate holds only the repaints the source's own events ask
// for, until all its tiles are in (or maxHoldMs passed), then asks for one; camera moves, other sources and
// animations repaint as before, and draw whatever tiles are in at that moment.
// That one repaint also places the new tiles' symbols in full (fadeDuration 0), yet MapLibre marks the placement
// stale because the symbol buckets changed in the same frame and asks for a second, identical frame: the gate drops
// that request when nothing but the placement is dirty (MapLibre 6.17's Map fields, read defensively: if they are
// gone the request goes through).
import type { GeoJSONSource, Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';

/** Starts gating the repaints of sourceId's updates; returns the function that stops it. */
export function gateSourceRepaints(map: MapLibreMap, sourceId: string, maxHoldMs = 200): () => void {
  const source = map.getSource<GeoJSONSource>(sourceId);
  if (!source) return () => {};
  // MapLibre's own requests go through the instance's triggerRepaint (Map._update, Map._render).
  const repaint = map.triggerRepaint;
  let inSourceEvent = false;
  let holding = false;
  let wanted = false;
  let released = false;
  let inReleasedRender = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    holding = false;
    if (wanted) {
      wanted = false;
      released = true;
      repaint.call(map);
    }
  };
  // 'render' fires inside the frame, before MapLibre asks for the next one.
  const onRender = () => {
    if (!released) return;
    released = false;
    inReleasedRender = true;
    queueMicrotask(() => (inReleasedRender = false));
  };
  const onlyPlacementDirty = () => {
    const m = map as unknown as { _placementDirty?: boolean; _sourcesDirty?: boolean; _styleDirty?: boolean; _repaint?: boolean };
    return m._placementDirty === true && m._sourcesDirty === false && m._styleDirty === false && !m._repaint && !map.isMoving();
  };
  // A source's events reach the map synchronously (source → tile manager → style → map, which repaints): the flag
  // marks the repaint requests made while one of them is being handled.
  const onSourceEvent = (e: MapSourceDataEvent) => {
    if (e.type === 'dataloading' && !e.tile) {
      // The source sends an update to its worker: hold until the tiles it reloads are back.
      holding = true;
      clearTimeout(timer);
      timer = setTimeout(release, maxHoldMs);
    }
    inSourceEvent = true;
    queueMicrotask(() => (inSourceEvent = false));
  };
  const onMapSourceData = (e: MapSourceDataEvent) => {
    if (e.sourceId !== sourceId) return;
    inSourceEvent = false;
    if (holding && e.tile && map.getSource(sourceId) && map.isSourceLoaded(sourceId)) release();
  };
  const gated = () => {
    if (inReleasedRender) {
      inReleasedRender = false;
      if (onlyPlacementDirty()) return;
    }
    if (holding && inSourceEvent) {
      wanted = true;
      return;
    }
    repaint.call(map);
  };

  source.on('dataloading', onSourceEvent);
  source.on('data', onSourceEvent);
  map.on('sourcedata', onMapSourceData);
  map.on('render', onRender);
  map.triggerRepaint = gated;
  return () => {
    source.off('dataloading', onSourceEvent);
    source.off('data', onSourceEvent);
    map.off('sourcedata', onMapSourceData);
    map.off('render', onRender);
    if (map.triggerRepaint === gated) map.triggerRepaint = repaint;
    release();
  };
}
