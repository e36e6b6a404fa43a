// Job tickets (docs/api.md "Job tickets"): shapes, REST calls, query keys, and how a live job.changed /
// job.removed event changes a list.
import { http } from '../../shared/http/client';

/** Ticket execution states (spec §4): 0 unsettled, 1 accepted, 2 rejected, 3 working, 4 over (completed). */
export const STATES = [0, 1, 2, 3, 4] as const;
export type JobState = (typeof STATES)[number];
export const STATE_COLOR: Record<JobState, string> = { 0: 'gold', 1: 'blue', 2: 'red', 3: 'processing', 4: 'green' };
/** States in which a ticket still waits for its worker. */
export const isOpen = (s: number) => s === 0 || s === 1 || s === 3;

export interface Ticket {
  msId: string;
  msName: string;
  state: JobState;
  reason: string;
  remark: string;
  delivered: boolean;
  dispatchTime: number;
  acceptTime: number;
  startTime: number;
  endTime: number;
  updateTime: number;
}

export interface Job {
  jobId: string;
  job: string;
  address: string;
  lat: number | null;
  lng: number | null;
  creator: string;
  creatorName: string;
  sendTime: number;
  status: JobState;
  jobMsList: Ticket[];
}

export interface HistoryEntry {
  id: number;
  jobId: string;
  msId: string;
  action: 'created' | 'delivered' | 'accepted' | 'rejected' | 'started' | 'completed';
  state: JobState;
  reason: string;
  by: string;
  byName: string;
  time: number;
}

export interface ReportRow {
  msId: string;
  msName: string;
  total: number;
  unsettled: number;
  accepted: number;
  rejected: number;
  working: number;
  over: number;
}

export interface Page<T> {
  total: number;
  list: T[];
}

export interface JobInput {
  job: string;
  address: string;
  lat?: number;
  lng?: number;
  msIds: string[];
}

export interface JobQuery {
  state?: string;
  msId?: string;
  keyword?: string;
  pageNo: number;
  pageSize: number;
}

export const JOB_PATHS = {
  add: '/ds/job/add',
  list: '/ds/job/list',
  remove: '/ds/job/delete',
  history: '/ds/job/history',
  report: '/ds/report/findJobReport',
} as const;

export function normaliseJob(j: Job): Job {
  const coord = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  return {
    ...j,
    jobId: String(j.jobId),
    lat: coord(j.lat),
    lng: coord(j.lng),
    status: Number(j.status) as JobState,
    jobMsList: (j.jobMsList ?? []).map((t) => ({ ...t, msId: String(t.msId), state: Number(t.state) as JobState })),
  };
}

export const jobApi = {
  add: (input: JobInput) => http.post<Job>(JOB_PATHS.add, { ...input, msIds: input.msIds.join(',') }).then(normaliseJob),
  list: async (q: JobQuery) => {
    const p = await http.get<Page<Job>>(JOB_PATHS.list, { ...q });
    return { total: p.total, list: p.list.map(normaliseJob) };
  },
  remove: (jobId: string, msId?: string) => http.del<{ jobId: string }>(JOB_PATHS.remove, { jobId, msId }),
  history: (jobId: string) => http.get<{ list: HistoryEntry[] }>(JOB_PATHS.history, { jobId }).then((r) => r.list),
  report: (q: { sTime: number; eTime: number; msIds?: string }) => http.post<{ list: ReportRow[]; total: ReportRow }>(JOB_PATHS.report, q),
};

export const jobKeys = {
  all: ['jobs'] as const,
  list: (q: JobQuery) => [...jobKeys.all, 'list', q] as const,
  history: (jobId: string) => [...jobKeys.all, 'history', jobId] as const,
  report: (q: object) => [...jobKeys.all, 'report', q] as const,
};

/** Does a job belong in a list filtered by q (terminals and states: one ticket must match both; keyword)? */
export function matches(j: Job, q: JobQuery): boolean {
  const ms = q.msId ? q.msId.split(',') : [];
  const st = q.state ? q.state.split(',').map(Number) : [];
  if ((ms.length || st.length) && !j.jobMsList.some((t) => (!ms.length || ms.includes(t.msId)) && (!st.length || st.includes(t.state)))) return false;
  if (q.keyword) {
    const k = q.keyword.toLowerCase();
    if (!j.job.toLowerCase().includes(k) && !j.address.toLowerCase().includes(k)) return false;
  }
  return true;
}

/** A live job.changed: the job replaces its row, or (when new and matching, on the first page) comes first. */
export function applyChanged(rows: Job[], j: Job, q: JobQuery): Job[] {
  const i = rows.findIndex((r) => r.jobId === j.jobId);
  if (i >= 0) return matches(j, q) ? rows.map((r, k) => (k === i ? j : r)) : rows.filter((_, k) => k !== i);
  if (q.pageNo !== 1 || !matches(j, q)) return rows;
  return [j, ...rows].slice(0, q.pageSize);
}

/** A live job.removed: the whole job, or one terminal's ticket of it. */
export function applyRemoved(rows: Job[], jobId: string, msId?: string): Job[] {
  if (!msId) return rows.filter((r) => r.jobId !== jobId);
  return rows
    .map((r) => (r.jobId === jobId ? { ...r, jobMsList: r.jobMsList.filter((t) => t.msId !== msId) } : r))
    .filter((r) => r.jobMsList.length > 0);
}
