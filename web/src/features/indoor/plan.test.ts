// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Position } from './api';
import { beaconsNeeded, metresToPx, polygonArea, polygonProblem, positionAt, scaleFromRef, shownOnFloor, validDecay, validMac, validRssi } from './plan';

const p = (time: number, x: number, floorId = 1): Position => ({ msId: '1', buildingId: 1, floorId, x, y: 0, accuracy: 1, uncertain: false, beacons: 5, time });

describe('indoor plan helpers', () => {
  it('derives the scale from two points', () => {
    expect(scaleFromRef(0, 0, 300, 400, 25)).toBeCloseTo(0.05);
    expect(scaleFromRef(5, 5, 5, 5, 3)).toBeUndefined();
    expect(scaleFromRef(0, 0, 10, 0, 0)).toBeUndefined();
    expect(metresToPx(2, { scale: 0.05 })).toBe(40);
    expect(metresToPx(0.01, { scale: 0.05 }, 4)).toBe(4);
  });

  it('holds the spec §5 ranges', () => {
    expect([-100, -50, -75].every(validRssi)).toBe(true);
    expect([-101, -49, -60.5, null].some(validRssi)).toBe(false);
    expect([1.1, 10, 2.2].every(validDecay)).toBe(true);
    expect([1.0, 10.01, Number.NaN].some(validDecay)).toBe(false);
    expect(validMac('c0:10:f4:00:01:02') && validMac('C010F4000102') && !validMac('C0:10:F4:00:01')).toBe(true);
  });

  it('plays a history back', () => {
    const h = [p(1000, 0), p(2000, 10), p(3000, 20, 2), p(60_000, 30, 2)];
    expect(positionAt(h, 500)).toBeUndefined();
    expect(positionAt(h, 1500)?.x).toBe(5);
    expect(positionAt(h, 2500)?.x).toBe(10); // the floor changes: no interpolation across it
    expect(positionAt(h, 30_000)?.x).toBe(20); // a long gap: the last known
    expect(positionAt(h, 90_000)?.x).toBe(30);
  });

  it('shows the played-back position during a playback, never the live ones (issue 33: the panel said otherwise)', () => {
    const live = [{ ...p(99_000, 70), msId: '2' }, { ...p(99_000, 80, 2), msId: '3' }];
    const at = positionAt([p(1000, 0), p(2000, 10)], 1500);
    expect(shownOnFloor(1, live, { msId: '1', at })).toEqual([{ ...p(1500, 5), name: '1' }]);
    expect(shownOnFloor(2, live, { msId: '1', at })).toEqual([]); // played back on another floor
    expect(shownOnFloor(1, live, { msId: '1', at: undefined })).toEqual([]); // before its first fix
    expect(shownOnFloor(1, live).map((x) => x.msId)).toEqual(['2']);
  });
});

describe('beaconsNeeded', () => {
  it('asks one beacon per 50 m² of the plan', () => {
    expect(beaconsNeeded({ width: 960, height: 480, scale: 0.05 })).toEqual({ area: 1152, need: 24 });
    expect(beaconsNeeded({ width: 100, height: 100, scale: 0.05 }).need).toBe(1);
  });
});

describe('walkable area polygons', () => {
  const floor = { width: 400, height: 200, scale: 0.05 };
  it('measures an area in m²', () => {
    expect(polygonArea([[0, 0], [200, 0], [200, 100], [0, 100]], floor)).toBeCloseTo(50);
  });
  it('holds the server rule (code 160)', () => {
    expect(polygonProblem([[0, 80], [400, 80], [400, 120], [0, 120]], floor)).toBeUndefined();
    expect(polygonProblem([[0, 0], [100, 100]], floor)).toBe('few');
    expect(polygonProblem(Array.from({ length: 65 }, (_, i) => [200 + 80 * Math.cos(i / 10), 100 + 80 * Math.sin(i / 10)] as [number, number]), floor)).toBe('many');
    expect(polygonProblem([[0, 0], [401, 0], [401, 10]], floor)).toBe('off');
    expect(polygonProblem([[0, 0], [9, 0], [9, 9], [0, 9]], floor)).toBe('small');
    expect(polygonProblem([[0, 0], [100, 100], [100, 0], [0, 100]], floor)).toBe('crossing');
  });
});
