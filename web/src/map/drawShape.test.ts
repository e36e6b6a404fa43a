// The draw layer's changes as terra-draw makes them: a real TerraDraw with the map's line and polygon modes, driven
// through an adapter that stands in for the map (screen = degrees × 10,000), reports the user's shape — not the
// guidance points terra-draw adds and removes while drawing (issue 15 item 2).
import { describe, expect, it } from 'vitest';
import type { Feature, Geometry } from 'geojson';
import { TerraDraw, TerraDrawLineStringMode, TerraDrawPolygonMode, type TerraDrawMouseEvent } from 'terra-draw';
import { drawnShape, FINISH_KEY, finishDrawing, onShapeChange, placedCount, placedShape } from './drawShape';
import { measureText } from '../shared/geo/measure';

const SCALE = 10_000;
type TerraDrawAdapter = ConstructorParameters<typeof TerraDraw>[0]['adapter'];
type Callbacks = Parameters<TerraDrawAdapter['register']>[0];

function drawing(mode: 'linestring' | 'polygon') {
  let cb: Callbacks | undefined;
  const adapter: TerraDrawAdapter = {
    project: (lng, lat) => ({ x: lng * SCALE, y: -lat * SCALE }),
    unproject: (x, y) => ({ lng: x / SCALE, lat: -y / SCALE }),
    setCursor: () => {},
    getLngLatFromEvent: () => null,
    setDoubleClickToZoom: () => {},
    getMapEventElement: () => document.createElement('div'),
    register: (c) => {
      cb = c;
      cb.onReady?.();
    },
    unregister: () => {},
    render: () => {},
    clear: () => {},
    getCoordinatePrecision: () => 9,
  };
  const keyEvents = { cancel: 'Escape', finish: FINISH_KEY };
  const modes = { linestring: new TerraDrawLineStringMode({ keyEvents }), polygon: new TerraDrawPolygonMode({ keyEvents }) };
  const d = new TerraDraw({ adapter, modes: Object.values(modes) });
  d.start();
  d.setMode(mode);
  // What the layer hands to the page after every change.
  const seen: (Feature<Geometry> | null)[] = [];
  onShapeChange(d, () => mode, (f) => seen.push(f));
  const ev = ([lng, lat]: [number, number]): TerraDrawMouseEvent => ({ lng, lat, containerX: lng * SCALE, containerY: -lat * SCALE, button: 'left', heldKeys: [], isContextMenu: false });
  const click = (p: [number, number]) => {
    cb!.onMouseMove(ev(p));
    cb!.onClick(ev(p));
  };
  const hover = (p: [number, number]) => cb!.onMouseMove(ev(p));
  return { d, seen, click, hover, finish: () => finishDrawing(modes[mode]), last: () => seen[seen.length - 1] ?? null };
}

describe('drawnShape', () => {
  it('follows the line while it is drawn and keeps the finished line (not its closing point)', () => {
    const { click, seen, last } = drawing('linestring');
    click([29, 41]);
    click([29.01, 41]);
    // The closing point is created on the second click: still the line.
    expect(last()?.geometry.type).toBe('LineString');
    click([29.01, 41]); // the last point again finishes the line; its closing point is deleted
    expect(seen.length).toBeGreaterThan(3);
    expect(last()?.geometry).toEqual({ type: 'LineString', coordinates: [[29, 41], [29.01, 41]] });
    // 0.01° of longitude at 41° N: 839.2 m on the 6,371 km sphere.
    expect(measureText('distance', last())).toBe('839.2 m');
  });

  it('reports the polygon being drawn and the finished polygon', () => {
    const { click, last } = drawing('polygon');
    const ring: [number, number][] = [[29, 41], [29.01, 41], [29.01, 41.01], [29, 41.01]];
    ring.forEach(click);
    expect(last()?.geometry.type).toBe('Polygon');
    click(ring[0]!); // closing on the first point finishes it
    const f = last();
    expect(f?.geometry.type).toBe('Polygon');
    expect(f?.properties?.currentlyDrawing).toBeFalsy();
    // ≈ 839 m × 1,112 m.
    expect(measureText('area', f)).toBe('0.933 km²');
  });

  it('is null when nothing is drawn, and ignores shapes of another mode', () => {
    expect(drawnShape([], 'linestring')).toBeNull();
    const point: Feature<Geometry> = { type: 'Feature', properties: { mode: 'linestring', closingPoint: true }, geometry: { type: 'Point', coordinates: [0, 0] } };
    const poly: Feature<Geometry> = { type: 'Feature', properties: { mode: 'polygon' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } };
    expect(drawnShape([point, poly], 'linestring')).toBeNull();
  });
});

describe('placedShape', () => {
  // What the ranging readout shows: the placed points only, after every click, whether or not a pointer hovers.
  const readout = (f: Feature<Geometry> | null) => `${measureText('distance', placedShape(f))} / ${placedCount(placedShape(f))}`;

  it('measures a line by its clicks alone, after each click, and finishes it without a keyboard', () => {
    const { click, hover, finish, last } = drawing('linestring');
    click([29, 41]);
    expect(readout(last())).toBe('0.0 m / 1');
    click([29.01, 41]);
    expect(readout(last())).toBe('839.2 m / 2');
    hover([29.02, 41.01]); // the pointer's leg is not part of the readout
    expect(readout(last())).toBe('839.2 m / 2');
    click([29.02, 41]);
    expect(readout(last())).toBe('1.678 km / 3');
    finish();
    const f = last();
    expect(f?.properties?.currentlyDrawing).toBeFalsy();
    expect(f?.geometry).toEqual({ type: 'LineString', coordinates: [[29, 41], [29.01, 41], [29.02, 41]] });
    expect(readout(f)).toBe('1.678 km / 3');
  });

  it('measures a polygon by its placed corners, and finishes it without closing on the first one', () => {
    const { click, hover, finish, last } = drawing('polygon');
    [[29, 41], [29.01, 41], [29.01, 41.01]].forEach((p) => click(p as [number, number]));
    hover([28.9, 41.2]);
    const placed = placedShape(last());
    expect(placedCount(placed)).toBe(3);
    // Half of the ≈ 839 m × 1,112 m rectangle.
    expect(measureText('area', placed)).toBe('0.467 km²');
    click([29, 41.01]);
    finish();
    const f = last();
    expect(f?.properties?.currentlyDrawing).toBeFalsy();
    expect(placedCount(f)).toBe(4);
    expect(measureText('area', f)).toBe('0.933 km²');
  });
});

describe('measureText', () => {
  it('sums a line leg by leg and switches to km at 1 km', () => {
    const line = (c: number[][]): Feature<Geometry> => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: c } });
    expect(measureText('distance', line([[0, 0], [0.005, 0], [0.005, 0.005]]))).toBe('1.112 km');
    expect(measureText('area', line([[0, 0], [1, 0]]))).toBe('');
    expect(measureText('distance', null)).toBe('');
  });
});
