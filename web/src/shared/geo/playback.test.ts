// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAY_STATE, framesFor, nextState, Timeline } from './playback';
import { TRACK_FIXTURE as FIXTURE } from './fixture';

describe('playback timeline', () => {
  const tl = new Timeline(FIXTURE);
  it('animates each ~111 m segment in 6 steps (precision rule)', () => {
    expect(tl.frames).toBe(1 + 9 * 6);
  });
  it('starts at the first point and ends at the last', () => {
    expect(tl.frameAt(0)).toMatchObject({ lat: 41, lng: 29, point: 0 });
    const last = tl.frameAt(tl.frames - 1)!;
    expect(last.lat).toBeCloseTo(41.009);
    expect(last.point).toBe(9);
    expect(tl.frameAt(10_000)!.lat).toBeCloseTo(41.009);
  });
  it('interpolates inside a segment and reaches each point on its last step', () => {
    const mid = tl.frameAt(3)!; // segment 1, step 3 of 6
    expect(mid.lat).toBeCloseTo(41.0005);
    expect(mid.point).toBe(1);
    expect(tl.frameAt(tl.frameOfPoint(4))!.lat).toBeCloseTo(41.004);
  });
  it('finds the frame of a time (scrubbing)', () => {
    expect(tl.frameAtTime(0)).toBe(0);
    expect(tl.frameAtTime(FIXTURE[5]!.time)).toBe(tl.frameOfPoint(5));
    expect(tl.frameAtTime(FIXTURE[5]!.time - 1)).toBe(tl.frameOfPoint(5));
    expect(tl.frameAtTime(Number.MAX_SAFE_INTEGER)).toBe(tl.frames - 1);
  });
  it('uses the server precision when the points carry it', () => {
    expect(new Timeline(FIXTURE.map((p, i) => ({ ...p, precision: i ? 2 : 0 }))).frames).toBe(1 + 9 * 2);
  });
  it('speeds scale the frames advanced', () => {
    expect(framesFor(1000, 1)).toBe(10);
    expect(framesFor(1000, 20)).toBe(200);
  });
  it('play state defaults to moveend (spec §4)', () => {
    expect(DEFAULT_PLAY_STATE).toBe('moveend');
    expect(nextState('moveend', 'play')).toBe('moving');
    expect(nextState('moving', 'pause')).toBe('pause');
    expect(nextState('moveend', 'pause')).toBe('moveend');
    expect(nextState('moving', 'end')).toBe('moveend');
  });
});
