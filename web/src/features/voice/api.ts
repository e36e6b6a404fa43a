// Call records, missed calls (docs/voice.md §6).
import { buildUrl, http } from '../../shared/http/client';
import type { CallKind, VoiceRecord } from '../../shared/voice/protocol';
import { currentToken } from '../../shared/session';

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

export const voiceApi = {
  records: (q: RecordQuery) => http.post<{ total: number; list: VoiceRecord[] }>('/ds/data/callByUTCPost', q),
  bursts: (callid: string, btime?: number) => http.post<{ list: VoiceRecord[] }>('/ds/data/voicePost', btime ? { callid, btime } : { callid }),
  missed: (stime?: number, etime?: number) => http.get<{ list: MissedCall[] }>('/ds/call/missed', { stime, etime }),
  clearMissed: (id?: string) => http.del<unknown>('/ds/call/missed', id ? { id } : {}),
};

/** The audio URL of a record with the token (an <audio> element sends no header; the cookie may be another port's). */
export function recordUrl(r: Pick<VoiceRecord, 'url'>, download = false): string | undefined {
  if (!r.url) return undefined;
  return buildUrl(r.url, { token: currentToken(), ...(download ? { download: 1 } : {}) });
}
