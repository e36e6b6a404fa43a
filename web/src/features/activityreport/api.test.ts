// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../../shared/report/charts';
import { expandDetail, hours, minutes, onlinePerDay, onlineShare, type OnlineRow } from './api';

describe('activity report helpers', () => {
  it('expands the compact detail whatever the column order', () => {
    const d = expandDetail({ msId: '1', msName: 'A', stime: 0, etime: 10, onlineMs: 7, total: 2, cols: ['durationMs', 'online', 'offline'], rows: [[5, 1, 6], [2, 8, 0]] });
    expect(d.list).toEqual([
      { online: 1, offline: 6, durationMs: 5 },
      { online: 8, offline: 0, durationMs: 2 },
    ]);
    expect(d).not.toHaveProperty('rows');
  });

  it('sums online time per day over every day of the range', () => {
    const rows: OnlineRow[] = [
      { msId: '1', msName: 'A', onlineMs: 3, sessions: 1, days: [{ day: '2026-11-02', onlineMs: 1 }, { day: '2026-11-04', onlineMs: 2 }] },
      { msId: '2', msName: 'B', onlineMs: 5, sessions: 2, days: [{ day: '2026-11-02', onlineMs: 5 }] },
    ];
    expect(onlinePerDay(rows, daysBetween('2026-11-01', '2026-11-04'))).toEqual([
      { day: '2026-11-01', onlineMs: 0 },
      { day: '2026-11-02', onlineMs: 6 },
      { day: '2026-11-03', onlineMs: 0 },
      { day: '2026-11-04', onlineMs: 2 },
    ]);
  });

  it('shares online time of the range that has passed', () => {
    expect(onlineShare(1800_000, 0, 3600_000, 10 * 3600_000)).toBe(50);
    // the range ends in the future: only the part until now counts
    expect(onlineShare(1800_000, 0, 10 * 3600_000, 3600_000)).toBe(50);
    expect(onlineShare(5, 10, 10, 20)).toBe(0);
  });

  it('rounds hours and minutes to one decimal', () => {
    expect(hours(5_400_000)).toBe(1.5);
    expect(minutes(90_000)).toBe(1.5);
  });
});
