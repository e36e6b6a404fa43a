// Job tickets (docs/api.md "Job tickets"): shapes, REST calls and query keys.
import { http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';

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

export const jobKeys = queryKeys('jobs', ['list', 'history', 'report']);
