// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sosFixTime } from './hooks';

describe('sosFixTime', () => {
  const raised = 1_700_000_000_000;
  const lastFix = raised - 24 * 60_000;

  it('is the last fix time when the alarm carries the terminal’s last known position (no position with the SOS)', () => {
    expect(sosFixTime({ time: raised, lat: 41.0082, lng: 28.9784 }, { lat: 41.0082, lng: 28.9784, lastGps: lastFix })).toBe(lastFix);
  });

  it('is the alarm time when the SOS came with a position of its own', () => {
    expect(sosFixTime({ time: raised, lat: 41.1, lng: 28.9784 }, { lat: 41.0082, lng: 28.9784, lastGps: lastFix })).toBe(raised);
  });

  it('is the alarm time when the console does not know the terminal or its fix time', () => {
    expect(sosFixTime({ time: raised, lat: 41, lng: 29 })).toBe(raised);
    expect(sosFixTime({ time: raised, lat: 41, lng: 29 }, { lat: 41, lng: 29 })).toBe(raised);
  });
});
