// Voice state of this page, fed by the engine from socket events (docs/voice.md). Components select small slices:
// a tree row subscribes to `talkers[cid]` only.
import { create } from 'zustand';
import type { MicStatus, RtcStatus } from './media';
import type { CallInvite, CallView, FloorStats, FloorTarget, FloorView, MonitorState, VoicePlaying } from './protocol';
import { IDLE, type PttSnapshot } from './ptt';

export interface MissedNotice {
  id: string;
  callId: string;
  msId: string;
  msName: string;
  status: number;
  time: number;
}

export interface VoiceState {
  rtc: RtcStatus;
  mic: MicStatus;
  ptt: PttSnapshot;
  /** Where a bare PTT press talks (undefined: the server's rule — own call, then the ptt group). */
  target?: FloorTarget;
  /** Floors of open calls, by call id. */
  floors: Record<string, FloorView>;
  /** Open calls, by call id. */
  calls: Record<string, CallView>;
  playing: VoicePlaying | null;
  /** The last finished burst of each call. */
  stats: Record<string, FloorStats>;
  /** Recent bursts, newest first. */
  bursts: FloorStats[];
  /** Who talks now: account id → call id. */
  talkers: Record<string, string>;
  monitor: MonitorState;
  /** Individual calls ringing here, waiting for an answer. */
  invites: CallInvite[];
  /** Other calls this account was joined to (temp, all, broadcast), newest first. */
  joined: CallInvite[];
  missed: MissedNotice[];
  /** The last call that ended, for a short notice. */
  ended?: { call: CallView; at: number };
  /** The microphone is muted on a full-duplex call's open line. */
  lineMuted: boolean;
}

export const initialVoiceState = (): VoiceState => ({
  rtc: 'idle',
  mic: 'unknown',
  ptt: IDLE,
  target: undefined,
  floors: {},
  calls: {},
  playing: null,
  stats: {},
  bursts: [],
  talkers: {},
  monitor: { groups: [], terminal: '' },
  invites: [],
  joined: [],
  missed: [],
  ended: undefined,
  lineMuted: false,
});

export const useVoice = create<VoiceState>(() => initialVoiceState());

export function talkersOf(floors: Record<string, FloorView>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of Object.values(floors)) if (f.talker) out[f.talker.msId] = f.callId;
  return out;
}

/** The talker of a group's open call, if any (for the group row highlight). */
export function groupTalker(s: Pick<VoiceState, 'floors'>, gid: string): string | undefined {
  for (const f of Object.values(s.floors)) if (f.gid === gid && f.talker) return f.talker.name || f.talker.msId;
  return undefined;
}

/** The call the floor of which this page holds or waits for. */
export function activeCallId(s: Pick<VoiceState, 'ptt'>): string | undefined {
  return s.ptt.phase === 'talking' || s.ptt.phase === 'queued' ? s.ptt.callId : undefined;
}
