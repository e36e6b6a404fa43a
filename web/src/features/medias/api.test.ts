import { describe, expect, it } from 'vitest';
import { matchesQuery, mergeLive, type MediaItem } from './api';

const item = (id: string, p: Partial<MediaItem> = {}): MediaItem => ({ id, msId: '10000150', fileId: `f${id}`, kind: 'image', url: `/filews/files/f${id}`, time: Number(id) * 1000, ...p });

describe('media cloud live updates', () => {
  it('keeps a live item only when it fits the filters', () => {
    const q = { msIds: ['10000150'], kind: 'image' as const, sTime: 0, eTime: 5_000 };
    expect(matchesQuery(item('3'), q, false)).toBe(true);
    expect(matchesQuery(item('3', { msId: '10000151' }), q, false)).toBe(false);
    expect(matchesQuery(item('3', { kind: 'video' }), q, false)).toBe(false);
    expect(matchesQuery(item('9'), q, false)).toBe(false);
    expect(matchesQuery(item('9'), q, true)).toBe(true); // a range that reaches now stays open
    expect(matchesQuery(item('3', { msId: '10000151' }), { ...q, msIds: [] }, false)).toBe(true);
  });

  it('adds new items newest first without repeats', () => {
    expect(mergeLive([item('2'), item('1')], [item('3'), item('2')]).map((x) => x.id)).toEqual(['3', '2', '1']);
  });
});
