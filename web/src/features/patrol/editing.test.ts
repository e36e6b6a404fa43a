// @vitest-environment node
import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { disc } from './components/PointsLayer';
import { move, toClasses } from './editing';

describe('route editor', () => {
  it('moves a point up and down, never out of the list', () => {
    expect(move([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(move([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    const l = [1, 2, 3];
    expect(move(l, 0, -1)).toBe(l);
    expect(move(l, 2, 1)).toBe(l);
  });
});

describe('plan classes', () => {
  it('are sent as HH:mm, a night class as it is (its end before its start)', () => {
    const at = (h: number, m = 0) => dayjs('2026-11-26T00:00:00').hour(h).minute(m);
    expect(toClasses([{ name: ' Night ', time: [at(22), at(6, 30)], msId: '10000161' }])).toEqual([
      { name: 'Night', startTime: '22:00', endTime: '06:30', msId: '10000161' },
    ]);
  });
});

describe('point radius on the map', () => {
  it('is a closed ring the radius away from the point', () => {
    const ring = disc(41, 29, 100);
    expect(ring).toHaveLength(33);
    expect(ring[0]).toEqual(ring[32]);
    const [lng, lat] = ring[8]!; // a quarter turn: due north
    expect(lng).toBeCloseTo(29, 6);
    expect((lat - 41) * 111_320).toBeCloseTo(100, 3);
  });
});
