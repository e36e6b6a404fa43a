// The broadcast data of the screen: react-query caches kept current by the broadcast.* console events (each event
// refreshes the one list it concerns) and refetched after a reconnect.
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { live, useLiveStatus } from '../../shared/socket/live';
import { broadcastApi } from './api';

export const broadcastKeys = {
  orgs: ['broadcast', 'orgs'] as const,
  devices: ['broadcast', 'devices'] as const,
  files: ['broadcast', 'files'] as const,
  tasks: ['broadcast', 'tasks'] as const,
  plans: ['broadcast', 'plans'] as const,
  realTime: ['broadcast', 'realTime'] as const,
};

const EVENTS: Record<string, readonly (readonly string[])[]> = {
  'broadcast.devices': [broadcastKeys.devices],
  'broadcast.device': [broadcastKeys.devices],
  'broadcast.task': [broadcastKeys.tasks, broadcastKeys.realTime],
  'broadcast.taskGone': [broadcastKeys.tasks],
  'broadcast.preempted': [broadcastKeys.tasks],
  'broadcast.missed': [broadcastKeys.tasks],
  'broadcast.pageEnded': [broadcastKeys.devices],
};

export function useBroadcast() {
  const qc = useQueryClient();
  const orgs = useQuery({ queryKey: broadcastKeys.orgs, queryFn: broadcastApi.orgs });
  const devices = useQuery({ queryKey: broadcastKeys.devices, queryFn: () => broadcastApi.devices(), refetchInterval: 2000 });
  const files = useQuery({ queryKey: broadcastKeys.files, queryFn: broadcastApi.files });
  const tasks = useQuery({ queryKey: broadcastKeys.tasks, queryFn: broadcastApi.tasks });
  const plans = useQuery({ queryKey: broadcastKeys.plans, queryFn: broadcastApi.plans });
  const realTime = useQuery({ queryKey: broadcastKeys.realTime, queryFn: broadcastApi.realTime });
  const status = useLiveStatus((s) => s.status);

  useEffect(() => {
    const offs = Object.entries(EVENTS).map(([type, keys]) =>
      live().on(type, () => keys.forEach((k) => void qc.invalidateQueries({ queryKey: [...k] }))),
    );
    return () => offs.forEach((off) => off());
  }, [qc]);

  useEffect(() => {
    if (status === 'online') void qc.invalidateQueries({ queryKey: ['broadcast'] });
  }, [status, qc]);

  const refresh = (key: readonly string[]) => void qc.invalidateQueries({ queryKey: [...key] });
  return { orgs, devices, files, tasks, plans, realTime, refresh };
}
