// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Feature, Polygon } from 'geojson';
import { circle } from '@turf/turf';
import { isValidColor, isValidMarkLink } from '../../shared/geo/api';
import { fenceGeometry } from './fenceGeometry';

const poly = (coordinates: number[][][]): Feature<Polygon> => ({ type: 'Feature', geometry: { type: 'Polygon', coordinates }, properties: {} });

describe('fence geometry from a drawing', () => {
  it('a circle becomes its centre and radius in metres', () => {
    const drawn = circle([29, 41], 0.5, { steps: 64, units: 'kilometers' });
    const g = fenceGeometry('circle', drawn)!;
    expect(g.geometry.type).toBe('Point');
    expect((g.geometry.coordinates as number[])[0]).toBeCloseTo(29, 4);
    expect((g.geometry.coordinates as number[])[1]).toBeCloseTo(41, 4);
    expect(Math.abs(g.radius! - 500)).toBeLessThan(3);
  });
  it('polygons and rectangles are kept as drawn; too few corners is no fence', () => {
    const square = poly([[[29, 41], [29.01, 41], [29.01, 41.01], [29, 41.01], [29, 41]]]);
    expect(fenceGeometry('rectangle', square)).toEqual({ geometry: square.geometry });
    expect(fenceGeometry('polygon', poly([[[29, 41], [29.01, 41], [29, 41]]]))).toBeNull();
  });
});

describe('marker link format (spec §5) and colours', () => {
  it.each([
    ['', true],
    ['https://example.com/depot', true],
    ['http://depot.example:8080/x?y=1', true],
    ['ftp://example.com', false],
    ['example.com', false],
    ['https://exa mple.com', false],
    ['javascript:alert(1)', false],
    [`https://example.com/${'a'.repeat(1030)}`, false],
  ])('%s → %s', (link, ok) => expect(isValidMarkLink(link)).toBe(ok));
  it('colours', () => {
    expect(isValidColor('#f00')).toBe(true);
    expect(isValidColor('#ff0000')).toBe(true);
    expect(isValidColor('#ff000080')).toBe(true);
    expect(isValidColor('red')).toBe(false);
    expect(isValidColor('#ff00')).toBe(false);
  });
});
