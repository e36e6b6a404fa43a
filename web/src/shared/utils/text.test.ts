// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { textLength, trimText } from './text';

describe('text trimming (spec §5: non-Latin characters count 2)', () => {
  it('counts Latin as 1 and others as 2', () => {
    expect(textLength('abc')).toBe(3);
    expect(textLength('Çağrı')).toBe(5);
    expect(textLength('调度')).toBe(4);
    expect(textLength('Рация')).toBe(10);
    expect(textLength('a调')).toBe(3);
  });
  it('leaves short text alone', () => {
    expect(trimText('Patrol', 10)).toBe('Patrol');
    expect(trimText('调度台', 6)).toBe('调度台');
  });
  it('cuts by display length, never splitting a wide character', () => {
    expect(trimText('abcdefghij', 6)).toBe('abcde…');
    expect(trimText('调度指挥中心', 7)).toBe('调度指…');
    expect(textLength(trimText('调度指挥中心', 8))).toBeLessThanOrEqual(8);
    expect(trimText('😀😀😀', 4)).toBe('😀…');
  });
});
