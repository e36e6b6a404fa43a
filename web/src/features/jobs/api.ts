// Job tickets (docs/api.md "Job tickets"): shapes, REST calls and query keys.
import { http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type * as wire from '../../shared/wire/job';

/** Ticket execution states (spec §4): 0 unsettled, 1 accepted, 2 rejected, 3 working, 4 over (completed). */
export const STATES = [0, 1, 2, 3, 4] as const;
export type JobState = (typeof STATES)[number];
export const STATE_COLOR: Record<JobState, string> = { 0: 'gold', 1: 'blue', 2: 'red', 3: 'processing', 4: 'green' };
/** States in which a ticket still waits for its worker. */
export const isOpen = (s: number) => s === 0 || s === 1 || s === 3;

// The server's shapes are generated from internal/job/model.go (make wire); the console narrows the states to
// the five it draws and a history entry's action to the six it names.
export interface Ticket extends Omit<wire.Ticket, 'state'> {
  state: JobState;
}

export interface Job extends Omit<wire.Job, 'status' | 'jobMsList'> {
  status: JobState;
  jobMsList: Ticket[];
}

export interface HistoryEntry extends Omit<wire.HistoryEntry, 'action' | 'state'> {
  action: 'created' | 'delivered' | 'accepted' | 'rejected' | 'started' | 'completed';
  state: JobState;
}

export type ReportRow = wire.ReportRow;

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
