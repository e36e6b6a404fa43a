// The directory feed: one app-wide subscription that keeps the directory store live for the whole console session,
// whatever screen shows. The shell (and each child window) mounts it once; screens only read the store.
import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { live, useLiveStatus } from '../socket/live';
import { directoryKeys, groupsQuery } from './api';
import { enqueue, type DirectoryEvent } from './store';

type StatusItem = Extract<DirectoryEvent, { type: 'terminal.status' }>['data'];

const EVENT_TYPES: DirectoryEvent['type'][] = ['presence', 'terminal.status', 'terminal.updated', 'member.switched', 'tempGroup.changed'];

/**
 * Subscribes the directory store to the socket: presence, status, renames, switches and temp groups are applied as
 * they come; the snapshot is fetched again after each (re)login — the socket missed whatever happened while it was
 * down — and when groups change. Returns the unsubscribe.
 */
export function startDirectoryFeed(qc: QueryClient): () => void {
  const sock = live();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refetch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void qc.invalidateQueries({ queryKey: directoryKeys.groups() }), 300);
  };
  const offs = EVENT_TYPES.map((type) => sock.on(type, (e) => enqueue({ type, data: e.data } as DirectoryEvent)));
  // The coalesced `gps` event (docs/geo.md) carries terminal.status-shaped items: position, battery, signal.
  offs.push(
    sock.on<{ list?: StatusItem[] }>('gps', (e) => e.data?.list?.forEach((item) => enqueue({ type: 'terminal.status', data: item }))),
    sock.on('group.changed', refetch),
    // Each login (the first, and every reconnect) resyncs: a snapshot taken before it may miss this console's own
    // presence, one taken during an outage misses what changed.
    useLiveStatus.subscribe((s, prev) => s.status === 'online' && prev.status !== 'online' && refetch()),
  );
  return () => {
    clearTimeout(timer);
    offs.forEach((off) => off());
  };
}

/** Mounts the directory feed for as long as the component lives (the shell, a child window). */
export function useDirectoryFeed(): void {
  const qc = useQueryClient();
  useQuery(groupsQuery());
  useEffect(() => startDirectoryFeed(qc), [qc]);
}

/** The directory snapshot's loading state for a screen; the store itself is kept live by the feed. */
export function useLiveDirectory() {
  return useQuery(groupsQuery());
}
