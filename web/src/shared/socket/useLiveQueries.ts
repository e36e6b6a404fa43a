// The one way a page gets live data, apart from the cross-feature stores (directory, alarms, voice, video;
// docs/adr/0033): the page's data stays in TanStack Query, and the page declares what each socket event does to
// it — makes queries stale, or patches their cached data — and which root to refetch after the socket (re)logs in.
// Each event updates one store — the query cache — and nothing else.
import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { live, useLiveStatus } from './live';

/** The queries an event makes stale: fixed, or read from the event's data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry reads its own event's shape
export type LiveKeys = readonly QueryKey[] | ((data: any) => readonly QueryKey[]);

/** A write to one cached query: `update` gets the data cached under `queryKey` (undefined before its first answer)
 * and returns the new data; returning undefined leaves the cache as it is. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each patch reads its own query's data
export interface LivePatch<T = any> {
  queryKey: QueryKey;
  update: (old: T | undefined) => T | undefined;
}

/** The cached data an event patches, read from the event's data: for a feed (rows appended from events, where a
 * refetch per event would ask for the whole feed each time) or a search with a side effect on the server (one
 * the server logs: a refetch per event would log a search for every open console). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry reads its own event's shape
export type LivePatches = { readonly patch: (data: any) => readonly LivePatch[] };

/** What an event does to the query cache: the keys it makes stale, or the data it patches. */
export type LiveEntry = LiveKeys | LivePatches;

function entryOf(events: Readonly<Record<string, LiveEntry>>, type: string): LiveEntry | undefined {
  return Object.prototype.hasOwnProperty.call(events, type) ? events[type] : undefined;
}

const isPatch = (e: LiveEntry): e is LivePatches => typeof e === 'object' && 'patch' in e;

/** The keys an event of `type` makes stale (none for an event the map does not name, or one that patches). */
export function staleKeys(events: Readonly<Record<string, LiveEntry>>, type: string, data: unknown): readonly QueryKey[] {
  const k = entryOf(events, type);
  if (!k || isPatch(k)) return [];
  return typeof k === 'function' ? k(data) : k;
}

/** The writes an event of `type` makes to cached data (none for an event the map does not name, or one that makes
 * queries stale). */
export function livePatches(events: Readonly<Record<string, LiveEntry>>, type: string, data: unknown): readonly LivePatch[] {
  const k = entryOf(events, type);
  return k && isPatch(k) ? k.patch(data) : [];
}

/**
 * Keeps a page's queries live: each event in `events` invalidates the keys it maps to, or writes its patches to
 * the cached data (setQueryData); when the socket comes (back) online — after a drop, a re-login, or the first
 * login after the page opened — everything under `resyncRoot` is refetched, since events may have been missed
 * meanwhile.
 */
export function useLiveQueries(events: Readonly<Record<string, LiveEntry>>, resyncRoot: QueryKey): void {
  const qc = useQueryClient();
  // The map may be a new literal each render; the subscriptions follow its event names, the keys its latest value.
  const latest = useRef(events);
  useEffect(() => {
    latest.current = events;
  });
  const types = Object.keys(events).sort().join('\n');
  const root = JSON.stringify(resyncRoot);

  useEffect(() => {
    const apply = (type: string, data: unknown) => {
      staleKeys(latest.current, type, data).forEach((queryKey) => void qc.invalidateQueries({ queryKey }));
      livePatches(latest.current, type, data).forEach(({ queryKey, update }) => qc.setQueryData(queryKey, update));
    };
    const offs = types
      .split('\n')
      .filter(Boolean)
      .map((type) => live().on(type, (e) => apply(type, e.data)));
    return () => offs.forEach((off) => off());
  }, [qc, types]);

  useEffect(
    () =>
      useLiveStatus.subscribe((s, prev) => {
        if (s.status === 'online' && prev.status !== 'online') void qc.invalidateQueries({ queryKey: JSON.parse(root) as QueryKey });
      }),
    [qc, root],
  );
}
