// The one way a page gets live data, apart from the cross-feature stores (directory, alarms, voice, video;
// docs/adr/0033): the page's data stays in TanStack Query, and the page declares which socket events make which
// queries stale and which root to refetch after the socket (re)logs in. Each event updates one store — the query
// cache — and nothing else.
import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { live, useLiveStatus } from './live';

/** The queries an event makes stale: fixed, or read from the event's data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry reads its own event's shape
export type LiveKeys = readonly QueryKey[] | ((data: any) => readonly QueryKey[]);

/** The keys an event of `type` makes stale (none for an event the map does not name). */
export function staleKeys(events: Readonly<Record<string, LiveKeys>>, type: string, data: unknown): readonly QueryKey[] {
  const k = Object.prototype.hasOwnProperty.call(events, type) ? events[type] : undefined;
  if (!k) return [];
  return typeof k === 'function' ? k(data) : k;
}

/**
 * Keeps a page's queries live: each event in `events` invalidates the keys it maps to; when the socket comes
 * (back) online — after a drop, a re-login, or the first login after the page opened — everything under
 * `resyncRoot` is refetched, since events may have been missed meanwhile.
 */
export function useLiveQueries(events: Readonly<Record<string, LiveKeys>>, resyncRoot: QueryKey): void {
  const qc = useQueryClient();
  // The map may be a new literal each render; the subscriptions follow its event names, the keys its latest value.
  const latest = useRef(events);
  useEffect(() => {
    latest.current = events;
  });
  const types = Object.keys(events).sort().join('\n');
  const root = JSON.stringify(resyncRoot);

  useEffect(() => {
    const offs = types
      .split('\n')
      .filter(Boolean)
      .map((type) => live().on(type, (e) => staleKeys(latest.current, type, e.data).forEach((queryKey) => void qc.invalidateQueries({ queryKey }))));
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
