// @vitest-environment node
/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromDisplay, inOutline, needsGcj, outlineFromGeoJSON, shouldConvert, toDisplay } from './gcj';

// The outline the console ships (public/map/china.geojson).
const outline = outlineFromGeoJSON(JSON.parse(readFileSync(join(process.cwd(), 'public/map/china.geojson'), 'utf8')));

const BEIJING = [116.3975, 39.9087] as const;
const SHANGHAI = [121.4737, 31.2304] as const;
const ISTANBUL = [28.9784, 41.0082] as const;
const TOKYO = [139.6917, 35.6895] as const;
const ULAANBAATAR = [106.9057, 47.8864] as const; // inside China's bounding box, outside the outline
const HAIKOU = [110.3312, 20.031] as const; // Hainan, another polygon of the outline

describe('China outline', () => {
  it('contains Chinese cities and not others, even inside its bounding box', () => {
    expect(inOutline(...BEIJING, outline)).toBe(true);
    expect(inOutline(...SHANGHAI, outline)).toBe(true);
    expect(inOutline(...HAIKOU, outline)).toBe(true);
    expect(inOutline(...ISTANBUL, outline)).toBe(false);
    expect(inOutline(...TOKYO, outline)).toBe(false);
    expect(inOutline(...ULAANBAATAR, outline)).toBe(false);
  });
  it('honours holes and concave rings', () => {
    const square = [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]];
    const u = [[[0, 0], [10, 0], [10, 10], [7, 10], [7, 3], [3, 3], [3, 10], [0, 10], [0, 0]]];
    expect(inOutline(2, 2, [square])).toBe(true);
    expect(inOutline(5, 5, [square])).toBe(false);
    expect(inOutline(5, 8, [u])).toBe(false);
    expect(inOutline(1, 8, [u])).toBe(true);
  });
});

describe('GCJ-02 decision (spec §2)', () => {
  it('only Amap and Google use GCJ-02', () => {
    expect(needsGcj('amap')).toBe(true);
    expect(needsGcj('google')).toBe(true);
    expect(needsGcj('osm')).toBe(false);
  });
  it('shifts points inside China for Amap and Google by a few hundred metres', () => {
    const [x, y] = toDisplay('amap', ...BEIJING, outline);
    expect(x).not.toBe(BEIJING[0]);
    const shift = Math.hypot((x - BEIJING[0]) * 85_000, (y - BEIJING[1]) * 111_000);
    expect(shift).toBeGreaterThan(100);
    expect(shift).toBeLessThan(1000);
    expect(shouldConvert('google', ...SHANGHAI, outline)).toBe(true);
  });
  it('leaves points outside China, OSM, and an unknown outline alone', () => {
    expect(toDisplay('amap', ...ISTANBUL, outline)).toEqual([...ISTANBUL]);
    expect(toDisplay('google', ...ULAANBAATAR, outline)).toEqual([...ULAANBAATAR]);
    expect(toDisplay('osm', ...BEIJING, outline)).toEqual([...BEIJING]);
    expect(toDisplay('amap', ...BEIJING, undefined)).toEqual([...BEIJING]);
  });
  it('converts drawn points back to WGS-84', () => {
    const shown = toDisplay('amap', ...SHANGHAI, outline);
    const back = fromDisplay('amap', shown[0], shown[1], outline);
    expect(back[0]).toBeCloseTo(SHANGHAI[0], 5);
    expect(back[1]).toBeCloseTo(SHANGHAI[1], 5);
  });
});
