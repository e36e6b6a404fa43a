// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { capLog } from './api';

describe('operation log cap (spec §5)', () => {
  it('cuts above 300 entries to the newest 150', () => {
    const list = Array.from({ length: 301 }, (_, i) => i);
    expect(capLog(list)).toEqual(list.slice(0, 150));
    expect(capLog(list.slice(0, 300))).toHaveLength(300);
  });
});
