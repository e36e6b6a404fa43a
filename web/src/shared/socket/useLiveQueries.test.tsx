import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { queryKeys } from '../queryKeys';
import { FakeWS } from '../test/fakeWebSocket';
import { configureLive, startLive, stopLive, useLiveStatus } from './live';
import { staleKeys, useLiveQueries, type LiveKeys } from './useLiveQueries';

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

function mount(events = EVENTS) {
  const qc = new QueryClient();
  const invalidate = vi.spyOn(qc, 'invalidateQueries').mockResolvedValue();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
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
