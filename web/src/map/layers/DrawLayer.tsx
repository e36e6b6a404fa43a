// Drawing on the map with terra-draw: fences (polygon, circle, rectangle), markers (point, line, shape) and the
// measuring tools (line for ranging, polygon for area). What is drawn is handed back in WGS-84.
import { useEffect, useRef } from 'react';
import type { Feature, Geometry } from 'geojson';
import { TerraDraw, TerraDrawCircleMode, TerraDrawLineStringMode, TerraDrawPointMode, TerraDrawPolygonMode, TerraDrawRectangleMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { useMapApi } from '../context';
import { mapCoords } from './shared';
import { FINISH_KEY, finishDrawing, onShapeChange } from '../drawShape';

export type DrawMode = 'polygon' | 'circle' | 'rectangle' | 'linestring' | 'point';

export interface DrawLayerProps {
  mode?: DrawMode;
  /** A shape was finished (WGS-84). */
  onFinish?: (f: Feature<Geometry>, mode: DrawMode) => void;
  /** The shape being drawn, or the one just finished, changed (WGS-84; null: nothing drawn), for live measuring. */
  onChange?: (f: Feature<Geometry> | null) => void;
  /** Changing it clears what was drawn. */
  resetKey?: unknown;
  /** Changing it finishes the line or polygon being drawn (the Finish button: no double-click or key needed). */
  finishKey?: unknown;
}

const STYLE = { fillColor: '#1677ff', outlineColor: '#1677ff', fillOpacity: 0.2, outlineWidth: 2 } as const;
/** Enter finishes a line or polygon (what finishDrawing presses), Escape drops it. */
const KEYS = { cancel: 'Escape', finish: FINISH_KEY };

export function DrawLayer({ mode, onFinish, onChange, resetKey, finishKey }: DrawLayerProps) {
  const { map, fromMap } = useMapApi();
  const draw = useRef<TerraDraw>(undefined);
  const finishable = useRef<Partial<Record<DrawMode, TerraDrawLineStringMode | TerraDrawPolygonMode>>>({});
  const cb = useRef({ onFinish, onChange, fromMap, mode });
  cb.current = { onFinish, onChange, fromMap, mode };

  useEffect(() => {
    const polygon = new TerraDrawPolygonMode({ keyEvents: KEYS, styles: { fillColor: STYLE.fillColor, outlineColor: STYLE.outlineColor, fillOpacity: STYLE.fillOpacity, outlineWidth: STYLE.outlineWidth } });
    const linestring = new TerraDrawLineStringMode({ keyEvents: KEYS, styles: { lineStringColor: STYLE.outlineColor, lineStringWidth: 3 } });
    finishable.current = { polygon, linestring };
    const d = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map, coordinatePrecision: 7 }),
      modes: [
        polygon,
        new TerraDrawCircleMode({ styles: { fillColor: STYLE.fillColor, outlineColor: STYLE.outlineColor, fillOpacity: STYLE.fillOpacity, outlineWidth: STYLE.outlineWidth } }),
        new TerraDrawRectangleMode({ styles: { fillColor: STYLE.fillColor, outlineColor: STYLE.outlineColor, fillOpacity: STYLE.fillOpacity, outlineWidth: STYLE.outlineWidth } }),
        linestring,
        new TerraDrawPointMode({ styles: { pointColor: STYLE.outlineColor, pointWidth: 7 } }),
      ],
    });
    d.start();
    const wgs = (f: Feature<Geometry>): Feature<Geometry> => ({ ...f, geometry: mapCoords(f.geometry as Geometry & { coordinates: unknown }, cb.current.fromMap) as Geometry });
    d.on('finish', (id) => {
      const f = d.getSnapshotFeature(id) as Feature<Geometry> | undefined;
      if (f && cb.current.mode) cb.current.onFinish?.(wgs(f), cb.current.mode);
    });
    onShapeChange(d, () => cb.current.mode, (f) => cb.current.onChange?.(f ? wgs(f) : null));
    draw.current = d;
    return () => {
      try {
        d.stop();
      } catch {
        /* the map went first */
      }
      draw.current = undefined;
    };
  }, [map]);

  useEffect(() => {
    const d = draw.current;
    if (!d) return;
    d.clear();
    d.setMode(mode ?? 'static');
  }, [mode, resetKey]);

  useEffect(() => {
    const m = mode && finishable.current[mode];
    if (finishKey !== undefined && m && draw.current) finishDrawing(m);
  }, [finishKey]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new finishKey finishes

  return <span hidden data-testid="draw-layer" data-mode={mode ?? ''} />;
}
