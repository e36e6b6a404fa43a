// Call records, missed calls (docs/voice.md §6).
import { buildUrl, http } from '../../shared/http/client';
import type { CallKind, VoiceRecord } from '../../shared/voice/protocol';
import { queryKeys } from '../../shared/queryKeys';

export interface RecordQuery {
  stime: number;
  etime: number;
  msId?: string;
  gid?: string;
  type?: CallKind;
  pageNo?: number;
  pageSize?: number;
}

export interface MissedCall {
  id: string;
  callId: string;
  calleeId: string;
  msId: string;
  msName: string;
  status: number;
  time: number;
}

/** The call records of /voice-list, one query per search and page. */
export const voiceKeys = queryKeys('voice', ['records']);

export const voiceApi = {
  records: (q: RecordQuery) => http.post<{ total: number; list: VoiceRecord[] }>('/ds/data/callByUTCPost', q),
  bursts: (callid: string, btime?: number) => http.post<{ list: VoiceRecord[] }>('/ds/data/voicePost', btime ? { callid, btime } : { callid }),
  missed: (stime?: number, etime?: number) => http.get<{ list: MissedCall[] }>('/ds/call/missed', { stime, etime }),
  clearMissed: (id?: string) => http.del<unknown>('/ds/call/missed', id ? { id } : {}),
};

/**
 * The audio URL of a record. It carries no token (URLs end up in logs and the history): the <audio> element sends
 * the session cookie, which downloads without effects accept (docs/adr/0009).
 */
export function recordUrl(r: Pick<VoiceRecord, 'url'>, download = false): string | undefined {
  if (!r.url) return undefined;
  return download ? buildUrl(r.url, { download: 1 }) : r.url;
}
