// The online and call-duration reports (docs/api.md "Reports: online and talk time"): typed calls, the
// pure helpers their screens and spreadsheets use.
import { http } from '../../shared/http/client';

export const ACTIVITY_PATHS = {
  online: '/ds/report/findOnlineDurationPost',
  onlineDetail: '/ds/report/findOnlineDetailData',
  callDuration: '/ds/report/findCallDurationPost',
} as const;

export interface DayMs {
  day: string;
  onlineMs: number;
}

export interface OnlineRow {
  msId: string;
  msName: string;
  onlineMs: number;
  sessions: number;
  days: DayMs[];
}

export interface OnlineReport {
  sTime: number;
  eTime: number;
  total: number;
  list: OnlineRow[];
}

export interface OnlineInterval {
  online: number;
  /** 0 while still online. */
  offline: number;
  durationMs: number;
}

export interface OnlineDetail {
  msId: string;
  msName: string;
  stime: number;
  etime: number;
  onlineMs: number;
  total: number;
  list: OnlineInterval[];
}

/** The isCompress=1 form of findOnlineDetailData. */
interface CompactDetail extends Omit<OnlineDetail, 'list'> {
  cols: string[];
  rows: number[][];
}

export interface TerminalTalk {
  msId: string;
  msName: string;
  talkMs: number;
  bursts: number;
  groupMs: number;
  singleMs: number;
  otherMs: number;
}

export interface GroupTalk {
  gid: string;
  gName: string;
  kind: 'group' | 'temp';
  talkMs: number;
  bursts: number;
}

export interface DayTalk {
  day: string;
  talkMs: number;
  bursts: number;
}

export interface DurationReport {
  sTime: number;
  eTime: number;
  talkMs: number;
  bursts: number;
  terminals: TerminalTalk[];
  groups: GroupTalk[];
  days: DayTalk[];
}

export interface RangeQuery {
  sTime: number;
  eTime: number;
  msIds?: string[];
}

/** Expands the compact (cols/rows) detail into objects, whatever the column order. */
export function expandDetail(c: CompactDetail): OnlineDetail {
  const at = (name: string) => c.cols.indexOf(name);
  const [on, off, dur] = [at('online'), at('offline'), at('durationMs')];
  const { cols: _cols, rows, ...rest } = c;
  return { ...rest, list: rows.map((r) => ({ online: r[on] ?? 0, offline: r[off] ?? 0, durationMs: r[dur] ?? 0 })) };
}

export const activityApi = {
  online: (q: RangeQuery) => http.post<OnlineReport>(ACTIVITY_PATHS.online, { sTime: q.sTime, eTime: q.eTime, ...(q.msIds?.length ? { msIds: q.msIds } : {}) }),
  /** The intervals of one terminal, asked for in the compact form (smaller for a month of a busy terminal). */
  onlineDetail: async (msId: string, stime: number, etime: number) =>
    expandDetail(await http.get<CompactDetail>(ACTIVITY_PATHS.onlineDetail, { msId, stime, etime, isCompress: 1 })),
  callDuration: (q: RangeQuery & { gids?: string[] }) =>
    http.post<DurationReport>(ACTIVITY_PATHS.callDuration, {
      sTime: q.sTime,
      eTime: q.eTime,
      ...(q.msIds?.length ? { msIds: q.msIds } : {}),
      ...(q.gids?.length ? { gids: q.gids } : {}),
    }),
};

export const activityKeys = {
  all: ['activityreport'] as const,
  online: (q: RangeQuery) => [...activityKeys.all, 'online', q] as const,
  detail: (msId: string, s: number, e: number) => [...activityKeys.all, 'detail', msId, s, e] as const,
  duration: (q: RangeQuery & { gids?: string[] }) => [...activityKeys.all, 'duration', q] as const,
};

/** Hours with one decimal (charts). */
export const hours = (ms: number) => Math.round(ms / 360_000) / 10;

/** Minutes with one decimal (charts of talk time). */
export const minutes = (ms: number) => Math.round(ms / 6_000) / 10;

/** Share of the range a terminal was online, in percent with one decimal; the range ends at now if later. */
export function onlineShare(onlineMs: number, sTime: number, eTime: number, now = Date.now()): number {
  const span = Math.min(eTime, now) - sTime;
  if (span <= 0) return 0;
  return Math.min(100, Math.round((onlineMs / span) * 1000) / 10);
}

/** Online time of every terminal summed per day, every day of the range listed (0 when nobody was online). */
export function onlinePerDay(rows: OnlineRow[], days: string[]): { day: string; onlineMs: number }[] {
  const sum = new Map<string, number>();
  for (const r of rows) for (const d of r.days) sum.set(d.day, (sum.get(d.day) ?? 0) + d.onlineMs);
  return days.map((day) => ({ day, onlineMs: sum.get(day) ?? 0 }));
}
