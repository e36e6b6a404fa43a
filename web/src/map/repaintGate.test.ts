// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { gateSourceRepaints } from './repaintGate';

type Handler = (e: Record<string, unknown>) => void;
class Evented {
  private handlers = new Map<string, Handler[]>();
  on(type: string, h: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), h]);
  }
  off(type: string, h: Handler) {
    this.handlers.set(type, (this.handlers.get(type) ?? []).filter((x) => x !== h));
  }
  emit(type: string, e: Record<string, unknown>) {
    for (const h of this.handlers.get(type) ?? []) h({ ...e, type });
  }
}

/** A map whose source events repaint the way MapLibre's do: source listeners first, then the map's repaint. */
function fakeMap() {
  const source = new Evented();
  const map = new Evented() as Evented & { triggerRepaint: () => void; getSource: (id: string) => unknown; isSourceLoaded: (id: string) => boolean };
  const painted = vi.fn();
  let loading = 0;
  map.triggerRepaint = painted;
  map.getSource = (id) => (id === 'terminals' ? source : undefined);
  map.isSourceLoaded = () => loading === 0;
  const sourceEvent = (type: 'data' | 'dataloading', tile?: object) => {
    source.emit(type, { tile });
    if (type === 'data') {
      map.triggerRepaint();
      map.emit('sourcedata', { sourceId: 'terminals', tile });
    }
  };
  return {
    map,
    painted,
    asMap: map as unknown as MapLibreMap,
    update: (tiles: number) => {
      sourceEvent('dataloading');
      sourceEvent('data'); // metadata
      sourceEvent('data'); // content: the tiles reload
      loading = tiles;
    },
    tileIn: () => {
      loading--;
      sourceEvent('data', {});
    },
  };
}

afterEach(() => vi.useRealTimers());

describe('gateSourceRepaints', () => {
  it('repaints once when every tile of an update is back, not once per event', () => {
    const f = fakeMap();
    gateSourceRepaints(f.asMap, 'terminals');
    f.update(3);
    f.tileIn();
    f.tileIn();
    expect(f.painted).not.toHaveBeenCalled();
    f.tileIn();
    expect(f.painted).toHaveBeenCalledTimes(1);
  });

  it('lets other repaints through while holding, and gives up holding after maxHoldMs', () => {
    vi.useFakeTimers();
    const f = fakeMap();
    gateSourceRepaints(f.asMap, 'terminals', 100);
    f.update(2);
    f.map.triggerRepaint(); // a camera move, another source, an animation
    expect(f.painted).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(f.painted).toHaveBeenCalledTimes(2);
  });

  it('drops the second frame MapLibre asks for after that repaint when only its placement is dirty', () => {
    const f = fakeMap();
    gateSourceRepaints(f.asMap, 'terminals');
    f.update(1);
    f.tileIn();
    expect(f.painted).toHaveBeenCalledTimes(1);
    const m = f.map as unknown as Record<string, unknown>;
    Object.assign(m, { _placementDirty: true, _sourcesDirty: false, _styleDirty: false, isMoving: () => false });
    f.map.emit('render', {});
    f.map.triggerRepaint(); // the end of the frame: placement stale
    expect(f.painted).toHaveBeenCalledTimes(1);
    f.map.triggerRepaint(); // anything after that frame goes through
    expect(f.painted).toHaveBeenCalledTimes(2);
    f.update(1);
    f.tileIn();
    Object.assign(m, { _styleDirty: true }); // a style transition still runs: its frame goes through
    f.map.emit('render', {});
    f.map.triggerRepaint();
    expect(f.painted).toHaveBeenCalledTimes(4);
  });

  it('restores the map when stopped', () => {
    const f = fakeMap();
    const original = f.map.triggerRepaint;
    const stop = gateSourceRepaints(f.asMap, 'terminals');
    expect(f.map.triggerRepaint).not.toBe(original);
    stop();
    expect(f.map.triggerRepaint).toBe(original);
  });
});
