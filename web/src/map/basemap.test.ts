import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASEMAP_KEY, probe, probeUrl, rememberReachable, unreachableSince } from './basemap';

afterEach(() => {
  localStorage.removeItem(BASEMAP_KEY);
  vi.useRealTimers();
});

describe('basemap reachability', () => {
  it('remembers an unreachable provider until it is reached again', () => {
    expect(unreachableSince('osm')).toBeUndefined();
    rememberReachable('osm', false, 1_000);
    rememberReachable('google', false, 2_000);
    expect(unreachableSince('osm')).toBe(1_000);
    rememberReachable('osm', true);
    expect(unreachableSince('osm')).toBeUndefined();
    expect(unreachableSince('google')).toBe(2_000);
  });

  it('probes the world tile and gives up on a host that never answers', async () => {
    expect(probeUrl('osm', undefined, 'en-US')).toBe('https://tile.openstreetmap.org/0/0/0.png');
    expect(await probe(undefined)).toBe(false);
    vi.useFakeTimers();
    // A dropped connection: the request only ends when it is aborted.
    const hanging = ((_: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))) as typeof fetch;
    const answer = probe('https://tiles.invalid/0/0/0.png', 3_000, hanging);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await answer).toBe(false);
    expect(await probe('https://tiles.invalid/0/0/0.png', 3_000, (() => Promise.resolve(new Response())) as typeof fetch)).toBe(true);
  });
});
