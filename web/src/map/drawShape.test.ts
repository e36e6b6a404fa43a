// The draw layer's changes as terra-draw makes them: a real TerraDraw with the map's line and polygon modes, driven
// through an adapter that stands in for the map (screen = degrees × 10,000), reports the user's shape — not the
// guidance points terra-draw adds and removes while drawing (issue 15 item 2).
import { describe, expect, it } from 'vitest';
import type { Feature, Geometry } from 'geojson';
import { TerraDraw, TerraDrawLineStringMode, TerraDrawPolygonMode, type TerraDrawMouseEvent } from 'terra-draw';
import { drawnShape, onShapeChange } from './drawShape';
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
  const d = new TerraDraw({ adapter, modes: [new TerraDrawLineStringMode(), new TerraDrawPolygonMode()] });
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
  return { d, seen, click, last: () => seen[seen.length - 1] ?? null };
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

describe('measureText', () => {
  it('sums a line leg by leg and switches to km at 1 km', () => {
    const line = (c: number[][]): Feature<Geometry> => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: c } });
    expect(measureText('distance', line([[0, 0], [0.005, 0], [0.005, 0.005]]))).toBe('1.112 km');
    expect(measureText('area', line([[0, 0], [1, 0]]))).toBe('');
    expect(measureText('distance', null)).toBe('');
  });
});
