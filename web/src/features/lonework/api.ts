// Lone-worker plans and alarms (docs/safety.md "Lone worker"): shapes, REST calls, query keys.
import { http } from '../../shared/http/client';
import type { Page } from '../../shared/http/createClient';
import { queryKeys } from '../../shared/queryKeys';
import type { LiveKeys } from '../../shared/socket/useLiveQueries';
import { loneAlarmApi, normaliseLoneAlarm, type LoneAlarm } from '../../shared/alarms/lonework';

export { normaliseLoneAlarm, type LoneAlarm } from '../../shared/alarms/lonework';

/** Plan status (spec §4): 0 normal, 1 alarm (an alarm not yet handled), 2 over. */
export type PlanStatus = 0 | 1 | 2;
/** Work state (spec §4): 0 waiting (on plan), 1 in progress (working), 2 over. */
export type WorkState = 0 | 1 | 2;
/** Alarm reasons (spec §4): 1 battery off, 2 offline, 3 weak signal, 4 busy, 5 forgot to reply. */
export const REASONS = [1, 2, 3, 4, 5] as const;
export type Reason = (typeof REASONS)[number];

export interface Plan {
  id: string;
  msId: string;
  msName: string;
  date: string;
  time: string;
  sTime: number;
  eTime: number;
  duration: number;
  interval: number;
  countdown: number;
  enabled: 0 | 1;
  status: PlanStatus;
  workState: WorkState;
  realStart: number;
  realStop: number;
  alarmCount: number;
  nextCheck: number;
  deadline: number;
  serverTime: number;
  createdBy?: string;
  createdAt?: number;
}

/** What add/update take (docs/safety.md): start as date + time in the customer's zone, lengths in minutes. */
export interface PlanInput {
  msIds: string[];
  date: string;
  time: string;
  duration: number;
  interval: number;
  countdown: number;
  enabled: 0 | 1;
}

export const LONEWORK_PATHS = {
  add: '/ds/loneWork/add',
  update: '/ds/loneWork/update',
  remove: '/ds/loneWork/delete',
  list: '/ds/loneWork/list',
  addAlarm: '/ds/loneWork/addAlarm',
  findAlarm: '/ds/loneWork/findAlarm',
} as const;

export function normalisePlan(p: Plan): Plan {
  return {
    ...p,
    id: String(p.id),
    msId: String(p.msId),
    status: Number(p.status) as PlanStatus,
    workState: Number(p.workState) as WorkState,
    enabled: Number(p.enabled) === 1 ? 1 : 0,
  };
}

export interface PlanListQuery {
  queryDate?: string;
  status?: string;
  msId?: string;
  pageNo?: number;
  pageSize?: number;
}

export const loneworkApi = {
  ...loneAlarmApi,
  list: async (q: PlanListQuery) => {
    const p = await http.get<Page<Plan>>(LONEWORK_PATHS.list, { ...q });
    return { total: p.total, list: p.list.map(normalisePlan) };
  },
  add: async (input: PlanInput) => {
    const p = await http.post<Page<Plan>>(LONEWORK_PATHS.add, { ...input, msIds: input.msIds.join(',') });
    return p.list.map(normalisePlan);
  },
  update: (id: string, input: Partial<Omit<PlanInput, 'msIds'>>) => http.put<Plan>(LONEWORK_PATHS.update, { id, ...input }).then(normalisePlan),
  /** Ends a plan in progress now (the one change a plan in progress accepts). */
  end: (id: string) => http.put<Plan>(LONEWORK_PATHS.update, { id, enabled: 0 }).then(normalisePlan),
  remove: (ids: string[]) => http.del<{ ids: string[] }>(LONEWORK_PATHS.remove, { ids: ids.join(',') }),
  addAlarm: (workId: string, reason: Reason) => http.post<LoneAlarm>(LONEWORK_PATHS.addAlarm, { workId, reason }).then(normaliseLoneAlarm),
  findAlarm: async (ids: string[], queryDate?: string) => {
    const p = await http.get<Page<LoneAlarm>>(LONEWORK_PATHS.findAlarm, { ids: ids.join(','), queryDate });
    return { total: p.total, list: p.list.map(normaliseLoneAlarm) };
  },
};

/** list(q): the plans of a query; alarms(ids): the alarms of plans. */
export const loneworkKeys = queryKeys('lonework', ['list', 'alarms']);

/** What each lone-work event makes stale (the plans' list also shows their alarm counts). */
export const LONEWORK_EVENTS: Record<string, LiveKeys> = {
  'lonework.state': [loneworkKeys.list.all],
  'lonework.removed': [loneworkKeys.list.all],
  'lonework.alarm': [loneworkKeys.list.all, loneworkKeys.alarms.all],
  'lonework.alarmUpdated': [loneworkKeys.list.all, loneworkKeys.alarms.all],
};
