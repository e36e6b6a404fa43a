// The /message-data report (docs/messages.md §4): POST /ds/report/findMessageData, and its spreadsheet.
import { http } from '../../shared/http/client';
import type { Message } from '../../shared/messages/record';
import { fetchAllPages } from '../../shared/report/fetchAll';
import { queryKeys } from '../../shared/queryKeys';

export const REPORT_PATHS = { find: '/ds/report/findMessageData' } as const;

export interface SummaryLine {
  msId: string;
  msName?: string;
  sent: number;
  received: number;
  delivered: number;
}

export interface MessageDataAnswer {
  total: number;
  list: Message[];
  summary: SummaryLine[];
}

export interface MessageDataQuery {
  msIds?: string[];
  sTime: number;
  eTime: number;
  pageNo: number;
  pageSize: number;
}

/** The report's queries: one per search and page. */
export const messageKeys = queryKeys('messagereport', ['find']);

export const reportApi = {
  find: (q: MessageDataQuery) =>
    http.post<MessageDataAnswer>(REPORT_PATHS.find, { ...(q.msIds?.length ? { msIds: q.msIds } : {}), sTime: q.sTime, eTime: q.eTime, pageNo: q.pageNo, pageSize: q.pageSize }),
};

/** Reads every page of the range (1,000 a page) for the export. */
export async function fetchAll(q: Omit<MessageDataQuery, 'pageNo' | 'pageSize'>, find = reportApi.find, onPage?: (loaded: number, total: number) => void): Promise<MessageDataAnswer> {
  const { first, list } = await fetchAllPages((pageNo, pageSize) => find({ ...q, pageNo, pageSize }), 1000, onPage);
  return { total: first.total, list, summary: first.summary ?? [] };
}

/** Who sent a message and where it went, for the table and the sheet. */
export function directionOf(m: Message): { from: string; to: string } {
  const from = m.fromName ? `${m.fromName} (${m.sender || m.from})` : String(m.sender || m.from || '');
  let to: string;
  if (m.gid) to = m.gName ? `${m.gName} (${m.gid})` : String(m.gid);
  else if (m.msId) to = m.msName ? `${m.msName} (${m.msId})` : String(m.msId);
  else to = '';
  return { from, to };
}

export interface SheetTexts {
  dispatchCenter: string;
  kinds: Record<string, string>;
  states: Record<string, string>;
  read: string;
  unread: string;
  format: (ms: number) => string;
}

/** One spreadsheet row per message. */
export function messageRows(list: Message[], x: SheetTexts): Record<string, string | number>[] {
  return list.map((m) => {
    const { from, to } = directionOf(m);
    return {
      time: x.format(m.time),
      from,
      to: to || x.dispatchCenter,
      type: x.kinds[m.type] ?? m.type,
      content: m.content ?? '',
      file: m.file?.name ?? '',
      delivery: m.incoming ? (Number(m.status) === 0 ? x.unread : x.read) : `${x.states[m.state ?? 'pending'] ?? m.state} ${m.delivered ?? 0}/${m.recipients ?? 0}`,
    };
  });
}
