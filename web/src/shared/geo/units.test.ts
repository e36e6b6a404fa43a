// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TRACK_FIXTURE } from './fixture';
import { convertDistance, convertSpeed, distanceUnitOf, haversine, normaliseCoord, precision, speedUnitOf, summarise, summaryRows } from './units';

const FIXTURE = TRACK_FIXTURE;

describe('units (spec §9)', () => {
  it('converts m/s with the spec factors', () => {
    expect(convertSpeed(10, 'km/h')).toBeCloseTo(36);
    expect(convertSpeed(10, 'mph')).toBeCloseTo(22.37);
    expect(convertSpeed(10, 'm/s')).toBe(10);
  });
  it('defaults to mph and shows distance in km for km/h and mph, else m', () => {
    expect(speedUnitOf(undefined)).toBe('mph');
    expect(speedUnitOf('knots')).toBe('mph');
    expect(speedUnitOf('km/h')).toBe('km/h');
    expect(distanceUnitOf('km/h')).toBe('km');
    expect(distanceUnitOf('mph')).toBe('km');
    expect(distanceUnitOf('m/s')).toBe('m');
    expect(convertDistance(1500, 'mph')).toBe(1.5);
    expect(convertDistance(1500, 'm/s')).toBe(1500);
  });
  it('haversine uses R = 6371 km', () => {
    // One degree of latitude on that sphere: 2πR/360.
    expect(haversine(29, 41, 29, 42)).toBeCloseTo((2 * Math.PI * 6_371_000) / 360, 3);
    expect(haversine(0, 0, 0, 0)).toBe(0);
  });
  it('divides micro-degree coordinates', () => {
    expect(normaliseCoord(41_008_200)).toBeCloseTo(41.0082);
    expect(normaliseCoord(-199.9)).toBe(-199.9);
  });
});

describe('distance-to-precision rule (spec §9)', () => {
  it.each([
    [0, 50], [49.99, 50], [50, 3], [100, 3], [100.01, 6], [200, 6], [250, 10], [300, 10], [399, 15], [400, 15],
    [450, 20], [500, 20], [500.5, 30], [1000, 30], [1000.1, 50], [5000, 50],
  ])('%s m → %s steps', (m, steps) => expect(precision(m)).toBe(steps));
});

describe('track summary (spec §3) on the docs/geo.md fixture', () => {
  it('in mph: distance 1.001 km, max 20.13, min 0, avg 10.07', () => {
    const s = summarise(FIXTURE, 'mph');
    expect(s).toMatchObject({ count: 10, distance: 1.001, distanceUnit: 'km', maxSpeed: 20.13, minSpeed: 0, avgSpeed: 10.07, speedUnit: 'mph' });
    expect(s.distanceM).toBeCloseTo(1000.8, 1);
    expect(s.startTime).toBe(1709625600000);
    expect(s.endTime).toBe(1709625600000 + 9 * 60_000);
  });
  it('in km/h and m/s', () => {
    expect(summarise(FIXTURE, 'km/h')).toMatchObject({ distance: 1.001, maxSpeed: 32.4, avgSpeed: 16.2 });
    expect(summarise(FIXTURE, 'm/s')).toMatchObject({ distance: 1000.754, distanceUnit: 'm', maxSpeed: 9, avgSpeed: 4.5 });
  });
  it('an empty track', () => {
    expect(summarise([], 'mph')).toMatchObject({ count: 0, distance: 0, avgSpeed: 0 });
  });
  it('display rows carry units and formatted times', () => {
    const rows = Object.fromEntries(summaryRows(summarise(FIXTURE, 'mph'), (ms) => `t${ms}`).map((r) => [r.key, r.value]));
    expect(rows).toEqual({
      count: '10',
      distance: '1.001 km',
      startTime: 't1709625600000',
      endTime: 't1709626140000',
      maxSpeed: '20.13 mph',
      minSpeed: '0.00 mph',
      avgSpeed: '10.07 mph',
    });
    const ms = Object.fromEntries(summaryRows(summarise(FIXTURE, 'm/s'), String).map((r) => [r.key, r.value]));
    expect(ms.distance).toBe('1000.8 m');
  });
});
