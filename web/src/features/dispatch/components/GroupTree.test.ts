// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { menuRoom, opensDown } from './GroupTree';

describe('the tree context menu placement', () => {
  it('opens toward the larger side of the window and keeps to the room there', () => {
    expect(opensDown(295, 850)).toBe(true);
    expect(menuRoom(295, 850)).toBe(547); // 850 − 295 − 8: a longer menu scrolls instead of being shifted
    expect(opensDown(700, 850)).toBe(false);
    expect(menuRoom(700, 850)).toBe(692);
    expect(menuRoom(840, 850 * 2)).toBe(852); // just below the middle of a tall window: downward
    expect(menuRoom(10, 100)).toBe(120); // a tiny window: never less than a few items
  });
});
