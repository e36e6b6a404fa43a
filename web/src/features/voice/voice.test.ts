import { describe, expect, it } from 'vitest';
import { priorityMode } from './console';
import { checkRange, startOfDay, startOfMonth } from './timeRange';

const utc = (s: string) => Date.parse(s);

describe('call-record time range (spec §5)', () => {
  it('requires both ends and start not after end', () => {
    expect(checkRange(undefined, utc('2026-11-21T10:00:00Z'))).toBe('required');
    expect(checkRange(utc('2026-11-21T10:00:00Z'), null)).toBe('required');
    expect(checkRange(utc('2026-11-21T10:00:01Z'), utc('2026-11-21T10:00:00Z'))).toBe('order');
    expect(checkRange(utc('2026-11-21T10:00:00Z'), utc('2026-11-21T10:00:00Z'))).toBeUndefined();
  });

  it('refuses cross-month ranges in the customer time zone', () => {
    expect(checkRange(utc('2026-10-31T12:00:00Z'), utc('2026-11-01T12:00:00Z'))).toBe('crossMonth');
    // 23:30 UTC on Oct 31 is already November 1 at UTC+3.
    expect(checkRange(utc('2026-10-31T23:30:00Z'), utc('2026-11-05T00:00:00Z'), 3 * 3_600_000)).toBeUndefined();
    expect(checkRange(utc('2026-10-31T23:30:00Z'), utc('2026-11-05T00:00:00Z'), 0)).toBe('crossMonth');
  });

  it('a whole month is accepted', () => {
    expect(checkRange(utc('2026-10-01T00:00:00Z'), utc('2026-10-31T23:59:59Z'))).toBeUndefined();
  });

  it('start of day and month in the customer zone', () => {
    const now = utc('2026-11-21T22:30:00Z');
    expect(new Date(startOfDay(now, 0)).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(new Date(startOfDay(now, 3 * 3_600_000)).toISOString()).toBe('2026-11-21T21:00:00.000Z'); // Nov 22 00:00 at UTC+3
    expect(new Date(startOfMonth(now, 0)).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
});

describe('audio playback priority setting → voice.priority', () => {
  it('maps the settings values onto the server modes', () => {
    expect(priorityMode('latest')).toBe('latest');
    expect(priorityMode('ownGroup')).toBe('ptt');
    expect(priorityMode('dispatcherFirst')).toBe('dispatcher');
    expect(priorityMode('unknown')).toBe('first');
  });
});
