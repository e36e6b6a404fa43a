// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { accountRoute, dialable, routeOf, type DialRoute } from './dial';

describe('the dial pad routes', () => {
  it('calls an 8-digit account id, and nothing else', () => {
    expect(routeOf('10000180')).toBe(accountRoute);
    for (const n of ['', '1000018', '100001800', '1000018*', '#1000018', 'abcdefgh']) expect(routeOf(n)).toBeUndefined();
  });

  it('takes the first route that takes a number (where a trunk route will come)', () => {
    const trunk: DialRoute = { name: 'trunk', takes: (n) => n.startsWith('0'), call: vi.fn(async () => undefined) };
    expect(routeOf('0049301234', [accountRoute, trunk])).toBe(trunk);
    expect(routeOf('10000180', [accountRoute, trunk])).toBe(accountRoute);
  });

  it('keeps only the keys of the pad from what is typed', () => {
    expect(dialable(' 1000-0180 ')).toBe('10000180');
    expect(dialable('*12#a')).toBe('*12#');
  });
});
