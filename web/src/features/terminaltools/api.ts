// Terminal tools of the dispatch screen (issue 19 item 5): the mute list (/ds/mute/*), remote parameters
// (`param.get` and `param.set` on the socket), voice and recording rights (/ds/voice/rights,
// /ds/voice/recordingTime) and TURN credentials (/ds/turn/send). docs/voice.md, docs/console-socket.md, docs/adr/0022.
import { http } from '../../shared/http/client';
import { live } from '../../shared/socket/live';

export const TOOLS_PATHS = {
  muteList: '/ds/mute/list',
  muteAdd: '/ds/mute/add',
  muteDelete: '/ds/mute/delete',
  rights: '/ds/voice/rights',
  recordingTime: '/ds/voice/recordingTime',
  turnSend: '/ds/turn/send',
} as const;

export interface Mute {
  id: string;
  msId: string;
  muteId: string;
  muteName?: string;
}

export interface Rights {
  msId: string;
  msName: string;
  voice: boolean;
  record: boolean;
}

export interface RecordingTime {
  limited: boolean;
  quotaMs: number;
  usedMs: number;
  remainingMs: number;
}

export interface ParamSetResult {
  msId: string;
  params: Record<string, string>;
}

/** param.get: the terminal's intervals; reported false means it did not answer and these are the stored ones. */
export interface CurrentParams extends ParamSetResult {
  reported: boolean;
}

export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/** The settable intervals of param.set with their bounds in seconds (internal/terminalctl Params). */
export const PARAMS = {
  gpsInterval: { min: 1, max: 86_400 },
  heartbeat: { min: 5, max: 3_600 },
  statusInterval: { min: 10, max: 86_400 },
} as const;
export type ParamName = keyof typeof PARAMS;
export type Unit = 's' | 'm' | 'h';
const UNIT_S: Record<Unit, number> = { s: 1, m: 60, h: 3600 };

/** Reads "30s", "5m", "2h" (what the server stores) into a number and unit; undefined when malformed. */
export function splitInterval(v: string | undefined): { n: number; unit: Unit } | undefined {
  const m = /^(\d{1,6})([smh])$/.exec((v ?? '').trim().toLowerCase());
  return m ? { n: Number(m[1]), unit: m[2] as Unit } : undefined;
}

/** The value param.set sends, or the problem with it: 'whole' (not a whole number) or 'range' (out of bounds). */
export function checkInterval(name: ParamName, n: number | null | undefined, unit: Unit): { value: string } | { problem: 'whole' | 'range' } {
  if (n === null || n === undefined || !Number.isInteger(n) || n < 0) return { problem: 'whole' };
  const s = n * UNIT_S[unit];
  if (s < PARAMS[name].min || s > PARAMS[name].max) return { problem: 'range' };
  return { value: `${n}${unit}` };
}

export const toolsApi = {
  mutes: (msId?: string) => http.get<{ list: Mute[] }>(TOOLS_PATHS.muteList, msId ? { msId } : {}),
  mute: (muteId: string, msId?: string) => http.post<{ id: string }>(TOOLS_PATHS.muteAdd, msId ? { msId, muteId } : { muteId }),
  unmute: (id: string) => http.del<unknown>(TOOLS_PATHS.muteDelete, { id }),
  rights: (msIds?: string[]) => http.get<{ list: Rights[] }>(TOOLS_PATHS.rights, msIds?.length ? { msIds: msIds.join(',') } : {}),
  setRights: (msId: string, patch: { voice?: boolean; record?: boolean }) =>
    http.put<{ list: Rights[] }>(TOOLS_PATHS.rights, {
      msId,
      ...(patch.voice !== undefined ? { voice: patch.voice ? 1 : 0 } : {}),
      ...(patch.record !== undefined ? { record: patch.record ? 1 : 0 } : {}),
    }),
  recordingTime: () => http.get<RecordingTime>(TOOLS_PATHS.recordingTime),
  /** minutes -1: no limit. */
  setRecordingTime: (minutes: number, reset = false) => http.put<RecordingTime>(TOOLS_PATHS.recordingTime, { minutes, ...(reset ? { reset: 1 } : {}) }),
  turnSend: (msId: string) => http.post<{ msId: string; iceServers: IceServer[] }>(TOOLS_PATHS.turnSend, { msId }),
  /** Relayed to the terminal; resolves once it acknowledged (the stored parameters). */
  setParams: (msId: string, params: Partial<Record<ParamName, string>>) => live().request<ParamSetResult>('param.set', { msId, params }),
  /** What the dialog opens with: the connected terminal is asked, else the stored parameters answer. */
  currentParams: (msId: string) => live().request<CurrentParams>('param.get', { msId }),
};

export const toolsKeys = {
  all: ['terminaltools'] as const,
  mutes: (msId?: string) => [...toolsKeys.all, 'mutes', msId ?? ''] as const,
  rights: (msId: string) => [...toolsKeys.all, 'rights', msId] as const,
  recordingTime: () => [...toolsKeys.all, 'recordingTime'] as const,
  params: (msId: string) => [...toolsKeys.all, 'params', msId] as const,
};
