// Lone-work alarms (docs/safety.md "Lone work"): the record the alarm queue, the lone-work screen and the safety
// reports all show, and the calls on it that more than the lone-work screen make.
import { http } from '../http/client';
import type { Page } from '../http/createClient';
import { queryKeys } from '../queryKeys';

export interface LoneAlarm {
  id: string;
  workId: string;
  msId: string;
  msName: string;
  reason: number;
  alarmTime: number;
  remark: string;
  handler: string;
  handlerName: string;
  handleTime: number;
}

const PATHS = {
  updateAlarm: '/ds/loneWork/updateAlarm',
  report: '/ds/report/findLoneWorkAlarm',
} as const;

export function normaliseLoneAlarm(a: LoneAlarm): LoneAlarm {
  return { ...a, id: String(a.id), workId: String(a.workId), msId: String(a.msId), reason: Number(a.reason) };
}

export const loneAlarmApi = {
  updateAlarm: (id: string, remark: string) => http.put<LoneAlarm>(PATHS.updateAlarm, { id, remark }).then(normaliseLoneAlarm),
  report: async (q: { sTime: number; eTime: number; msIds?: string; pageNo?: number; pageSize?: number }) => {
    const p = await http.post<Page<LoneAlarm>>(PATHS.report, q);
    return { total: p.total, list: p.list.map(normaliseLoneAlarm) };
  },
};

/** report(q): a page of the lone-work alarm report. */
export const loneAlarmKeys = queryKeys('lonework', ['report']);
