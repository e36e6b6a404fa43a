import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { live, onResync } from '../socket/live';
import { directoryKeys, groupsQuery } from './api';
import { enqueue, loadSnapshot, type DirectoryEvent } from './store';

type StatusItem = Extract<DirectoryEvent, { type: 'terminal.status' }>['data'];

const EVENT_TYPES: DirectoryEvent['type'][] = ['presence', 'terminal.status', 'terminal.updated', 'member.switched', 'tempGroup.changed'];

/** Loads the directory over REST and keeps it live from the socket; refetches after a reconnect. */
export function useLiveDirectory() {
  const qc = useQueryClient();
  const q = useQuery(groupsQuery());

  useEffect(() => {
    if (q.data) loadSnapshot(q.data);
  }, [q.data]);

  useEffect(() => {
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
      onResync(refetch),
    );
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [qc]);

  return q;
}
