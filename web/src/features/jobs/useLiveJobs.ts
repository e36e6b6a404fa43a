// Live job tickets: a job sent, acted on or withdrawn (job.changed, job.removed) makes the job lists and that
// job's history stale; the socket coming (back) online refetches all of jobs (shared useLiveQueries).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLiveQueries, type LiveKeys } from '../../shared/socket/useLiveQueries';
import { jobApi, jobKeys, type JobQuery } from './api';

const historyOf = (e?: { jobId?: string | number }) => (e?.jobId ? [jobKeys.history(String(e.jobId))] : []);

/** Which job queries each job event makes stale. */
export const JOB_EVENTS: Record<string, LiveKeys> = {
  'job.changed': (j?: { jobId?: string }) => [jobKeys.list.all, ...historyOf(j)],
  'job.removed': (r?: { jobId?: string }) => [jobKeys.list.all, ...historyOf(r)],
};

/** The jobs of a query, live. */
export function useLiveJobs(q: JobQuery) {
  useLiveQueries(JOB_EVENTS, jobKeys.all);
  const query = useQuery({ queryKey: jobKeys.list(q), queryFn: () => jobApi.list(q), placeholderData: keepPreviousData, staleTime: 0 });
  return { rows: query.data?.list ?? NONE, total: query.data?.total ?? 0, loading: query.isLoading, refetch: query.refetch };
}

const NONE: never[] = [];
