import { describe, expect, it } from 'vitest';
import { checkRange, TRACK_MAX_DAYS } from './timeRange';

const utc = (s: string) => Date.parse(`${s}Z`);
const H = 3_600_000;

describe('time range (spec §5)', () => {
  it('needs both ends, in order', () => {
    expect(checkRange(undefined, utc('2026-03-02T00:00:00'), 7, 0)).toBe('required');
    expect(checkRange(utc('2026-03-03T00:00:00'), utc('2026-03-02T00:00:00'), 7, 0)).toBe('order');
    expect(checkRange(utc('2026-03-02T00:00:00'), utc('2026-03-02T00:00:00'), 7, 0)).toBeNull();
  });
  it('at most 7 days for the track', () => {
    expect(checkRange(utc('2026-03-01T00:00:00'), utc('2026-03-08T00:00:00'), TRACK_MAX_DAYS, 0)).toBeNull();
    expect(checkRange(utc('2026-03-01T00:00:00'), utc('2026-03-08T00:00:01'), TRACK_MAX_DAYS, 0)).toBe('tooLong');
  });
  it('one calendar month of the customer time zone; the next month start counts as the earlier month', () => {
    expect(checkRange(utc('2026-02-27T00:00:00'), utc('2026-03-01T10:00:00'), 7, 0)).toBe('crossMonth');
    expect(checkRange(utc('2026-02-27T00:00:00'), utc('2026-03-01T00:00:00'), 7, 0)).toBeNull();
    // 2026-02-28 20:00 UTC is already March 1st at UTC+8.
    expect(checkRange(utc('2026-02-28T10:00:00'), utc('2026-02-28T20:00:00'), 7, 8 * H)).toBe('crossMonth');
    expect(checkRange(utc('2026-02-28T17:00:00'), utc('2026-02-28T20:00:00'), 7, 8 * H)).toBeNull();
  });
});
