// @vitest-environment node
import { describe, expect, it } from 'vitest';
import dayjs from '../utils/dayjs';
import { checkRange, checkWallRange, defaultWallRange, MONTH_DAYS, rangeProblemOf, rangeToMs, RANGE_CODES, startOfDay, startOfMonth, TRACK_MAX_DAYS } from './range';
import { clock, msToWall, wallToMs } from './zone';

const utc = (s: string) => Date.parse(`${s}Z`);
const H = 3_600_000;
const WEEK = 7;

// The cases of the server's internal/platform/timerange TestParse, so the console refuses exactly what it refuses.
describe('time range, as the server checks it (spec §5)', () => {
  const cases: [string, number | undefined, number | undefined, number, number, string][] = [
    ['same day', utc('2026-11-01T00:00:00'), utc('2026-11-01T23:59:59'), 0, 0, 'ok'],
    ['equal ends', utc('2026-11-05T10:00:00'), utc('2026-11-05T10:00:00'), 0, 0, 'ok'],
    ['whole month', utc('2026-11-01T00:00:00'), utc('2026-11-30T23:59:59'), 0, MONTH_DAYS, 'ok'],
    ['to first instant of next month', utc('2026-11-01T00:00:00'), utc('2026-12-01T00:00:00'), 0, 0, 'ok'],
    ["31-day month to next month's first instant", utc('2026-03-01T00:00:00'), utc('2026-04-01T00:00:00'), 0, MONTH_DAYS, 'ok'],
    ["one ms past next month's first instant", utc('2026-11-01T00:00:00'), utc('2026-12-01T00:00:00') + 1, 0, 0, '95'],
    ['start after end', utc('2026-11-05T10:00:00'), utc('2026-11-04T10:00:00'), 0, 0, '93'],
    ['exactly maxLen', utc('2026-03-01T00:00:00'), utc('2026-03-08T00:00:00'), 0, WEEK, 'ok'],
    ['over maxLen', utc('2026-03-01T00:00:00'), utc('2026-03-08T00:00:01'), 0, WEEK, '94'],
    ['too long is told before cross month', utc('2026-03-01T00:00:00'), utc('2026-04-05T00:00:00'), 0, MONTH_DAYS, '94'],
    ['no maxLen: only the month rule', utc('2026-03-01T00:00:00'), utc('2026-04-05T00:00:00'), 0, 0, '95'],
    ['cross month', utc('2026-10-31T10:00:00'), utc('2026-11-01T10:00:00'), 0, 0, '95'],
    ['cross year', utc('2026-12-31T10:00:00'), utc('2027-01-01T10:00:00'), 0, 0, '95'],
    ["month of the customer's zone", utc('2026-10-31T20:00:00'), utc('2026-11-20T02:00:00'), 8 * H, 0, 'ok'],
    ['same range is cross month in UTC', utc('2026-10-31T20:00:00'), utc('2026-11-20T02:00:00'), 0, 0, '95'],
    ['zone makes it cross', utc('2026-10-31T15:00:00'), utc('2026-10-31T17:00:00'), 8 * H, 0, '95'],
    ['missing start', undefined, 1, 0, 0, '400'],
    ['missing end', 1, undefined, 0, 0, '400'],
  ];
  it.each(cases)('%s', (_name, start, end, offset, maxDays, want) => {
    const p = checkRange(start, end, maxDays, offset);
    expect(p ? RANGE_CODES[p] : 'ok').toBe(want);
  });
  it('a track spans at most a week; a server code maps back to its problem', () => {
    expect(checkRange(utc('2026-03-01T00:00:00'), utc('2026-03-08T00:00:01'), TRACK_MAX_DAYS, 0)).toBe('tooLong');
    expect(rangeProblemOf('95')).toBe('crossMonth');
    expect(rangeProblemOf('93')).toBe('order');
    expect(rangeProblemOf('400')).toBeUndefined();
  });
});

describe("wall values in the customer's zone", () => {
  const eight = 8 * H;
  it('convert both ways whatever the browser zone', () => {
    const t = utc('2026-03-31T20:00:00');
    const w = msToWall(t, eight);
    expect(w.format('YYYY-MM-DD HH:mm')).toBe('2026-04-01 04:00');
    expect(wallToMs(w, eight)).toBe(t);
    expect(rangeToMs([dayjs('2026-11-01'), dayjs('2026-11-30 23:59:59')], 3 * H)).toEqual({ sTime: Date.UTC(2026, 9, 31, 21), eTime: Date.UTC(2026, 10, 30, 20, 59, 59) });
  });
  it('default to this month up to the end of today, a valid range', () => {
    const r = defaultWallRange(utc('2026-03-31T20:00:00'), eight);
    expect(r[0].format('YYYY-MM-DD HH:mm:ss')).toBe('2026-04-01 00:00:00');
    expect(r[1].format('YYYY-MM-DD HH:mm:ss')).toBe('2026-04-01 23:59:59');
    expect(checkWallRange(r, 0, eight)).toBeUndefined();
  });
  it('are checked as wall values', () => {
    expect(checkWallRange(null)).toBe('required');
    expect(checkWallRange([dayjs('2026-11-02'), null], 0, 0)).toBe('required');
    expect(checkWallRange([dayjs('2026-11-03'), dayjs('2026-11-02')], 0, 0)).toBe('order');
    expect(checkWallRange([dayjs('2026-11-01'), dayjs('2026-12-01 00:00')], 0, eight)).toBeUndefined();
    expect(checkWallRange([dayjs('2026-11-20'), dayjs('2026-12-01 00:01')], 0, eight)).toBe('crossMonth');
  });
  it('start of day and month', () => {
    const now = utc('2026-11-21T22:30:00');
    expect(new Date(startOfDay(now, 0)).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(new Date(startOfDay(now, 3 * H)).toISOString()).toBe('2026-11-21T21:00:00.000Z');
    expect(new Date(startOfMonth(now, 0)).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
  it('clock formats spans', () => {
    expect(clock(65_000)).toBe('01:05');
    expect(clock(3_725_000)).toBe('1:02:05');
    expect(clock(-5)).toBe('00:00');
  });
});
