import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { queryKeys } from '../queryKeys';
import { staleKeys, useLiveQueries, type LiveKeys } from './useLiveQueries';

// The window's socket, as a list of listeners a test can fire events at.
const listeners = new Map<string, Set<(e: { type: string; data: unknown }) => void>>();
vi.mock('./live', async (importOriginal) => {
  const real = await importOriginal<typeof import('./live')>();
  return {
    ...real,
    live: () => ({
      on: (type: string, fn: (e: { type: string; data: unknown }) => void) => {
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type)!.add(fn);
        return () => listeners.get(type)!.delete(fn);
      },
    }),
  };
});
const { useLiveStatus } = await import('./live');
const emit = (type: string, data: unknown = {}) => act(() => listeners.get(type)?.forEach((fn) => fn({ type, data })));

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
  return { hook, invalidate, invalidated };
}

afterEach(() => {
  cleanup();
  listeners.clear();
  useLiveStatus.setState({ status: 'idle' });
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
  it('invalidates the keys each event maps to, and nothing for other events', () => {
    const { invalidated } = mount();
    emit('demo.changed');
    emit('demo.detail', { id: 7 });
    emit('other.event');
    expect(invalidated()).toEqual([['demo', 'items'], ['demo', 'items'], ['demo', 'detail', 7]]);
  });

  it('refetches the resync root when the socket comes (back) online, not while it stays online', () => {
    const { invalidated } = mount();
    act(() => useLiveStatus.setState({ status: 'online' }));
    act(() => useLiveStatus.setState({ status: 'online' }));
    act(() => useLiveStatus.setState({ status: 'reconnecting' }));
    expect(invalidated()).toEqual([['demo']]);
    act(() => useLiveStatus.setState({ status: 'online' }));
    expect(invalidated()).toEqual([['demo'], ['demo']]);
  });

  it('follows a new map without subscribing twice, and lets go on unmount', () => {
    const { hook, invalidated } = mount();
    hook.rerender({ ev: { ...EVENTS, 'demo.changed': [keys.detail.all] } });
    expect(listeners.get('demo.changed')?.size).toBe(1);
    emit('demo.changed');
    expect(invalidated()).toEqual([['demo', 'detail']]);
    hook.unmount();
    expect(listeners.get('demo.changed')?.size).toBe(0);
  });

  it('reads keys only for events the map names', () => {
    expect(staleKeys(EVENTS, 'toString', {})).toEqual([]);
    expect(staleKeys(EVENTS, 'demo.detail', {})).toEqual([['demo', 'items']]);
  });
});
