// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fixAge, isStaleFix, POSITION_STALE_MS } from './fixAge';

describe('fixAge', () => {
  const now = 1_700_000_000_000;

  it('is fresh up to the threshold and stale past it', () => {
    expect(fixAge(now - POSITION_STALE_MS, now)).toEqual({ ageMs: POSITION_STALE_MS, stale: false });
    expect(fixAge(now - POSITION_STALE_MS - 1, now)).toEqual({ ageMs: POSITION_STALE_MS + 1, stale: true });
  });

  it('reads a fix from a clock ahead of ours as just taken', () => {
    expect(fixAge(now + 5_000, now)).toEqual({ ageMs: 0, stale: false });
  });

  it('has no age without a fix time, and such a position counts as stale', () => {
    expect(fixAge(undefined, now)).toBeUndefined();
    expect(fixAge(0, now)).toBeUndefined();
    expect(isStaleFix(undefined, now)).toBe(true);
    expect(isStaleFix(now - 60_000, now)).toBe(false);
    expect(isStaleFix(now - 24 * 60 * 60_000, now)).toBe(true);
  });
});
