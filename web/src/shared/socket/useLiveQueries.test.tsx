import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../queryKeys';
import { FakeWS } from '../test/fakeWebSocket';
import { configureLive, startLive, stopLive, useLiveStatus } from './live';
import { livePatches, staleKeys, useLiveQueries, type LiveEntry, type LiveKeys } from './useLiveQueries';

// The window's real socket client (live()), on a scripted WebSocket: logins, drops and events go through it.
vi.stubGlobal('WebSocket', FakeWS);
configureLive({ token: () => 'tok', onRejected: () => {} });

/** The socket the client opened last, logged in. */
async function login(): Promise<FakeWS> {
  const ws = FakeWS.all.at(-1)!;
  ws.open();
  ws.reply(0, '0', { msId: '1' });
  await vi.waitFor(() => expect(useLiveStatus.getState().status).toBe('online'));
  return ws;
}

const keys = queryKeys('demo', ['items', 'detail']);
const EVENTS: Record<string, LiveKeys> = {
  'demo.changed': [keys.items.all],
  'demo.detail': (d: { id?: number }) => (d.id ? [keys.items.all, keys.detail(d.id)] : [keys.items.all]),
};

function withClient() {
  const qc = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  return { qc, wrapper };
}

function mount(events = EVENTS) {
  const { qc, wrapper } = withClient();
  const invalidate = vi.spyOn(qc, 'invalidateQueries').mockResolvedValue();
  const hook = renderHook(({ ev }) => useLiveQueries(ev, keys.all), { wrapper, initialProps: { ev: events } });
  const invalidated = () => invalidate.mock.calls.map(([f]) => f?.queryKey);
  return { hook, invalidated };
}

beforeEach(() => {
  FakeWS.all = [];
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  stopLive();
  vi.useRealTimers();
});

describe('query-key factories', () => {
  it('give one query its key and every query of a list its prefix', () => {
    expect(keys.all).toEqual(['demo']);
    expect(keys.items.all).toEqual(['demo', 'items']);
    expect(keys.items({ q: 1 })).toEqual(['demo', 'items', { q: 1 }]);
    expect(keys.detail(7)).toEqual(['demo', 'detail', 7]);
  });
});

describe('useLiveQueries', () => {
  it('invalidates the keys each event maps to, and nothing for other events; mounting while online fetches nothing twice', async () => {
    void startLive();
    const ws = await login();
    const { invalidated } = mount();
    expect(invalidated()).toEqual([]);
    ws.event('demo.changed', {});
    ws.event('demo.detail', { id: 7 });
    ws.event('other.event', {});
    expect(invalidated()).toEqual([['demo', 'items'], ['demo', 'items'], ['demo', 'detail', 7]]);
  });

  it('refetches the resync root at the first login after the page opened and after each drop, not while it stays online', async () => {
    const { invalidated } = mount();
    void startLive();
    const ws = await login();
    expect(invalidated()).toEqual([['demo']]);
    ws.event('demo.other', {});
    useLiveStatus.setState({ status: 'online' }); // told "online" again while online
    expect(invalidated()).toEqual([['demo']]);
    ws.close(); // a drop: the client reconnects after its backoff
    expect(useLiveStatus.getState().status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    await login();
    expect(invalidated()).toEqual([['demo'], ['demo']]);
  });

  it('follows a new map without subscribing twice, and lets go on unmount', async () => {
    void startLive();
    const ws = await login();
    const { hook, invalidated } = mount();
    hook.rerender({ ev: { ...EVENTS, 'demo.changed': [keys.detail.all] } });
    ws.event('demo.changed', {});
    expect(invalidated()).toEqual([['demo', 'detail']]);
    hook.unmount();
    ws.event('demo.changed', {});
    ws.close();
    await vi.advanceTimersByTimeAsync(1_000);
    await login();
    expect(invalidated()).toEqual([['demo', 'detail']]);
  });

  it('reads keys only for events the map names', () => {
    expect(staleKeys(EVENTS, 'toString', {})).toEqual([]);
    expect(staleKeys(EVENTS, 'demo.detail', {})).toEqual([['demo', 'items']]);
  });
});

// A feed: rows come first from the server, then from events written into the cached data.
const feed = keys.items('feed');
const gone = keys.items('not cached');
const PATCHES: Record<string, LiveEntry> = {
  'demo.added': {
    patch: (d: { id: string }) => [
      { queryKey: feed, update: (old?: string[]) => old && [d.id, ...old] },
      { queryKey: gone, update: (old?: string[]) => old && [d.id, ...old] },
    ],
  },
};

/** A page that shows the feed (a query) and keeps it live with PATCHES; served is what the server answers. */
function mountFeed(served: { list: string[] }) {
  const { qc, wrapper } = withClient();
  const invalidate = vi.spyOn(qc, 'invalidateQueries');
  const queryFn = vi.fn(async () => served.list);
  const hook = renderHook(
    () => {
      useLiveQueries(PATCHES, keys.all);
      return useQuery({ queryKey: feed, queryFn, staleTime: Infinity }).data;
    },
    { wrapper },
  );
  return { qc, hook, queryFn, invalidate };
}

describe('useLiveQueries patching cached data', () => {
  it("writes an event's patches to the cached data and fetches nothing; other events do nothing", async () => {
    void startLive();
    const ws = await login();
    const { qc, hook, queryFn, invalidate } = mountFeed({ list: ['a'] });
    await vi.waitFor(() => expect(hook.result.current).toEqual(['a']));
    ws.event('demo.added', { id: 'b' });
    await vi.waitFor(() => expect(hook.result.current).toEqual(['b', 'a']));
    ws.event('other.event', { id: 'c' });
    ws.event('demo.changed', { id: 'c' });
    await vi.advanceTimersByTimeAsync(100);
    expect(hook.result.current).toEqual(['b', 'a']);
    expect(qc.getQueryCache().find({ queryKey: gone })).toBeUndefined(); // an update returning undefined writes nothing
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('refetches the resync root after a drop: the server answer replaces the patched data', async () => {
    void startLive();
    const ws = await login();
    const served = { list: ['a'] };
    const { hook, queryFn } = mountFeed(served);
    await vi.waitFor(() => expect(hook.result.current).toEqual(['a']));
    ws.event('demo.added', { id: 'b' });
    ws.close();
    served.list = ['c', 'b', 'a']; // c came while the socket was down
    await vi.advanceTimersByTimeAsync(1_000);
    await login();
    await vi.waitFor(() => expect(hook.result.current).toEqual(['c', 'b', 'a']));
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('reads patches only for events the map names, and no keys for an event that patches', () => {
    expect(livePatches(PATCHES, 'toString', {})).toEqual([]);
    expect(livePatches(EVENTS, 'demo.changed', {})).toEqual([]);
    expect(livePatches(PATCHES, 'demo.added', { id: 'b' }).map((p) => p.queryKey)).toEqual([feed, gone]);
    expect(staleKeys(PATCHES, 'demo.added', { id: 'b' })).toEqual([]);
  });
});
