import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLiveQueries } from '../../shared/socket/useLiveQueries';
import { LONEWORK_EVENTS, loneworkApi, loneworkKeys, type PlanListQuery } from './api';
import { isStale, type LivePlan } from './countdown';

/**
 * The plans of a query, live: the lone-work events make the list stale (useLiveQueries), and a resync refetches it.
 * Each row keeps the browser time its answer arrived at, from which its countdowns run.
 */
export function useLivePlans(q: PlanListQuery) {
  useLiveQueries(LONEWORK_EVENTS, loneworkKeys.all);
  const query = useQuery({ queryKey: loneworkKeys.list(q), queryFn: () => loneworkApi.list(q), staleTime: 0 });
  const { data, dataUpdatedAt, isFetching, refetch } = query;
  const rows = useMemo<LivePlan[]>(() => (data?.list ?? []).map((p) => ({ ...p, receivedAt: dataUpdatedAt })), [data, dataUpdatedAt]);

  // A plan that should have moved on but did not (lonework.state is not durable: one missed during a drop): fetch again.
  useEffect(() => {
    const id = setInterval(() => {
      if (!isFetching && rows.some((r) => isStale(r, Date.now()))) void refetch();
    }, 5000);
    return () => clearInterval(id);
  }, [rows, isFetching, refetch]);

  return { rows, loading: query.isLoading, error: query.error, refetch };
}
