// The broadcast data of the screen: react-query caches kept current by the broadcast.* console events (each event
// makes the lists it concerns stale) and refetched when the socket comes (back) online (shared useLiveQueries).
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLiveQueries, type LiveKeys } from '../../shared/socket/useLiveQueries';
import { broadcastApi, broadcastKeys } from './api';

/** Which broadcast lists each broadcast event makes stale. broadcast.pageEnded is not one: it tells the paging
 * console its own live page ended (PageButton), and the speakers that stopped playing it come as broadcast.devices. */
export const BROADCAST_EVENTS: Record<string, LiveKeys> = {
  'broadcast.devices': [broadcastKeys.devices.all],
  'broadcast.device': [broadcastKeys.devices.all],
  'broadcast.task': [broadcastKeys.tasks.all, broadcastKeys.realTime.all],
  'broadcast.taskGone': [broadcastKeys.tasks.all],
  'broadcast.preempted': [broadcastKeys.tasks.all],
  'broadcast.missed': [broadcastKeys.tasks.all],
};

export function useBroadcast() {
  const qc = useQueryClient();
  const orgs = useQuery({ queryKey: broadcastKeys.orgs(), queryFn: broadcastApi.orgs });
  const devices = useQuery({ queryKey: broadcastKeys.devices(), queryFn: () => broadcastApi.devices(), refetchInterval: 2000 });
  const files = useQuery({ queryKey: broadcastKeys.files(), queryFn: broadcastApi.files });
  const tasks = useQuery({ queryKey: broadcastKeys.tasks(), queryFn: broadcastApi.tasks });
  const plans = useQuery({ queryKey: broadcastKeys.plans(), queryFn: broadcastApi.plans });
  const realTime = useQuery({ queryKey: broadcastKeys.realTime(), queryFn: broadcastApi.realTime });
  useLiveQueries(BROADCAST_EVENTS, broadcastKeys.all);

  const refresh = (queryKey: QueryKey) => void qc.invalidateQueries({ queryKey });
  return { orgs, devices, files, tasks, plans, realTime, refresh };
}
