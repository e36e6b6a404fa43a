import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { live, useLiveStatus } from '../../shared/socket/live';
import { loneworkApi, loneworkKeys, normalisePlan, type Plan, type PlanListQuery } from './api';
import { isStale, type LivePlan } from './countdown';
import { removePlans, sortPlans, upsertPlan } from './rows';

/** The plans of a query, live: fetched, then kept current by lonework.state / lonework.removed; refetched on reconnect. */
export function useLivePlans(q: PlanListQuery) {
  const query = useQuery({ queryKey: loneworkKeys.list(q), queryFn: () => loneworkApi.list(q), staleTime: 0 });
  const [rows, setRows] = useState<LivePlan[]>([]);
  const status = useLiveStatus((s) => s.status);
  const { refetch } = query;

  useEffect(() => {
    if (!query.data) return;
    const at = Date.now();
    setRows(sortPlans(query.data.list.map((p) => ({ ...p, receivedAt: at }))));
  }, [query.data, query.dataUpdatedAt]);

  useEffect(() => {
    const offs = [
      live().on<Plan>('lonework.state', (e) => setRows((r) => upsertPlan(r, normalisePlan(e.data), q, Date.now()))),
      live().on<{ ids: string[] }>('lonework.removed', (e) => setRows((r) => removePlans(r, e.data.ids ?? []))),
    ];
    return () => offs.forEach((off) => off());
  }, [JSON.stringify(q)]); // eslint-disable-line react-hooks/exhaustive-deps

  // Back online after a drop: the rows may have changed meanwhile.
  const wasOnline = useRef(status === 'online');
  useEffect(() => {
    if (status === 'online' && !wasOnline.current) void refetch();
    wasOnline.current = status === 'online';
  }, [status, refetch]);

  // A plan that should have moved on but did not (a lonework.state missed, e.g. during a drop): fetch again.
  useEffect(() => {
    const id = setInterval(() => {
      if (!query.isFetching && rows.some((r) => isStale(r, Date.now()))) void refetch();
    }, 5000);
    return () => clearInterval(id);
  }, [rows, query.isFetching, refetch]);

  return { rows, setRows, loading: query.isLoading, error: query.error, refetch };
}
