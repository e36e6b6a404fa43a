// SOS alarms (docs/safety.md "SOS"): record, REST calls and query keys.
import { http } from '../http/client';
import { queryKeys } from '../queryKeys';
import type { Page } from '../http/createClient';
import type * as wire from '../wire/sos';

/** 0 sending (nobody acknowledged yet), 1 acknowledged, 2 closed (spec §4). */
export type SosState = 0 | 1 | 2;
export const SOS_STATES: SosState[] = [0, 1, 2];
/** Alarm kinds a terminal sends; other short codes are kept as sent. */
export const SOS_TYPES = ['0', '1', '2', '3'] as const;

/** An alarm record: generated from internal/sos/model.go (make wire), its state and close kind narrowed. */
export interface SosAlarm extends Omit<wire.Alarm, 'state' | 'closeKind'> {
  state: SosState;
  /** console, remote (the terminal confirmed it stopped), terminal (canceled on the device). */
  closeKind: '' | 'console' | 'remote' | 'terminal';
}

export interface SosQuery {
  sTime: number;
  eTime: number;
  msIds?: string;
  state?: string;
  type?: string;
  pageNo?: number;
  pageSize?: number;
}

export type SosReportRow = wire.ReportRow;

export const SOS_PATHS = {
  find: '/ds/sos/findSos',
  update: '/ds/sos/updateSos',
  report: '/ds/report/findSosReport',
} as const;

/** Remarks are at most 200 characters (docs/safety.md updateSos). */
export const REMARK_MAX = 200;

/** The server sends numbers as numbers, but a state or id may come as a string: one shape for the console. */
export function normaliseAlarm(a: SosAlarm): SosAlarm {
  return { ...a, id: String(a.id), msId: String(a.msId), state: Number(a.state) as SosState, time: Number(a.time) };
}

export const sosApi = {
  /** Every open alarm (state 0 and 1), whatever its age: what the console loads at start and after a reconnect. */
  open: async () => {
    const p = await http.get<Page<SosAlarm>>(SOS_PATHS.find, { open: 1 });
    return p.list.map(normaliseAlarm);
  },
  find: async (q: SosQuery) => {
    const p = await http.get<Page<SosAlarm>>(SOS_PATHS.find, { ...q });
    return { total: p.total, list: p.list.map(normaliseAlarm) };
  },
  acknowledge: (id: string) => http.put<SosAlarm>(SOS_PATHS.update, { id, state: 1 }).then(normaliseAlarm),
  close: (id: string, remark: string, remote: boolean) =>
    http.put<SosAlarm>(SOS_PATHS.update, { id, state: 2, remark, ...(remote ? { remote: 1 } : {}) }).then(normaliseAlarm),
  report: (q: { sTime: number; eTime: number; msIds?: string }) => http.post<Page<SosReportRow>>(SOS_PATHS.report, q),
};

/** sosKeys.find(q): one alarm search (the history pages); sosKeys.report(q): the SOS statistics. */
export const sosKeys = queryKeys('sos', ['find', 'report']);
