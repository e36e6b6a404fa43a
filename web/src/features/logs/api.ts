// Operation log (docs/api.md "Operation log").
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';

export const LOG_PATHS = { list: '/ds/log/list' } as const;

export interface LogEntry {
  id: string;
  date: number | string;
  name: string;
  account: string;
  type: string | number;
  /** English text (the spec's field); the console shows detail instead when there is one. */
  remark: string;
  /** The remark as data: a template key (logs i18n `detail.<key>`) and its parameters; absent on older rows. */
  detail?: { key: string; params?: Record<string, string> };
}

export interface LogQuery {
  type?: string;
  stime?: number;
  etime?: number;
  account?: string;
  pageNo: number;
  pageSize: number;
}

export const logApi = {
  list: (q: LogQuery) => http.get<{ total: number; list: LogEntry[] }>(LOG_PATHS.list, { ...q }),
};

/** logKeys.list(q): one page of the history; logKeys.feed(): the live panel's rows. */
export const logKeys = queryKeys('logs', ['list', 'feed']);

export const logListQuery = (q: LogQuery) => queryOptions({ queryKey: logKeys.list(q), queryFn: () => logApi.list(q) });

/** Spec §5: log lists above 300 entries are cut to the newest 150. */
export const LOG_CAP = 300;
export const LOG_KEEP = 150;
export function capLog<T>(list: T[]): T[] {
  return list.length > LOG_CAP ? list.slice(0, LOG_KEEP) : list;
}

/** Log types used by the product (spec §4): 0–9 and 100–130; 140 job tickets and 141 school bus (docs/adr/0020),
 * 142 media cloud (docs/messages.md §6). */
export const LOG_TYPES = [
  ...Array.from({ length: 10 }, (_, i) => i),
  15,
  ...Array.from({ length: 31 }, (_, i) => 100 + i),
  140,
  141,
  142,
];
