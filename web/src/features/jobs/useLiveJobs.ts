import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { live, useLiveStatus } from '../../shared/socket/live';
import { applyChanged, applyRemoved, jobApi, jobKeys, normaliseJob, type Job, type JobQuery } from './api';

/** The jobs of a query, live: fetched, then kept current by job.changed / job.removed; refetched on reconnect. */
export function useLiveJobs(q: JobQuery) {
  const query = useQuery({ queryKey: jobKeys.list(q), queryFn: () => jobApi.list(q), staleTime: 0 });
  const [rows, setRows] = useState<Job[]>([]);
  const [total, setTotal] = useState(0);
  const status = useLiveStatus((s) => s.status);
  const { refetch } = query;

  useEffect(() => {
    if (!query.data) return;
    setRows(query.data.list);
    setTotal(query.data.total);
  }, [query.data, query.dataUpdatedAt]);

  useEffect(() => {
    const offs = [
      live().on<Job>('job.changed', (e) => setRows((r) => applyChanged(r, normaliseJob(e.data), q))),
      live().on<{ jobId: string; msId?: string }>('job.removed', (e) => setRows((r) => applyRemoved(r, String(e.data.jobId), e.data.msId))),
    ];
    return () => offs.forEach((off) => off());
  }, [JSON.stringify(q)]); // eslint-disable-line react-hooks/exhaustive-deps

  // Back online after a drop: the rows may have changed meanwhile.
  const wasOnline = useRef(status === 'online');
  useEffect(() => {
    if (status === 'online' && !wasOnline.current) void refetch();
    wasOnline.current = status === 'online';
  }, [status, refetch]);

  return { rows, total, loading: query.isLoading, refetch };
}
