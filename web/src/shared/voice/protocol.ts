// The voice protocol's messages as the browser sees them (docs/voice.md). Shared by the console and the phone app.

/** What the voice engine needs from a socket: the console's SocketClient and the phone's TerminalSocket both fit. */
export interface VoiceSocket {
  request<R = unknown>(type: string, data?: unknown, timeoutMs?: number): Promise<R>;
  on<D = unknown>(type: string, fn: (e: { type: string; data: D }) => void): () => void;
}

export type CallKind = 'group' | 'single' | 'temp' | 'all' | 'broadcast';

export interface Person {
  msId: string;
  name: string;
  type: string;
}

export interface Party extends Person {
  state: 'invited' | 'connected' | 'left' | 'offline' | string;
}

/** `floor.state` — on every change of a call's floor. */
export interface FloorView {
  callId: string;
  kind: CallKind;
  gid?: string;
  gName?: string;
  talker: Person | null;
  since?: number;
  emergency?: boolean;
  queue: string[];
  maxTalkMs: number;
  /** Why the talker's burst is not recorded (spec §8 "no recording permission", "not enough recording time"). */
  notRecorded?: 'noRecordPermission' | 'noRecordTime';
}

/** Whether account me is a party of call c: it started it or is among its parties. */
export function isParty(c: Pick<CallView, 'initiator' | 'parties'>, me: string): boolean {
  return c.initiator?.msId === me || !!c.parties?.some((p) => p.msId === me);
}

/** `call.state` and the entries of `call.list`. */
export interface CallView {
  callId: string;
  kind: CallKind;
  state: 'trying' | 'ringing' | 'answered' | 'connected' | 'ended';
  status: number;
  gid?: string;
  gName?: string;
  initiator: Person;
  parties?: Party[];
  started: number;
  by?: string;
  floor?: FloorView;
  /** A connected full-duplex individual call (a phone call): both parties talk throughout, no floor. */
  duplex?: boolean;
  /** A call to a phone number: the number dialled (its callee is the SIP trunk's account). */
  number?: string;
}

/** `floor.stats` — after each burst. */
export interface FloorStats {
  callId: string;
  msId: string;
  btime: number;
  durationMs: number;
  pressToGrantUs: number;
  grantToFirstUs: number;
  delayP50Us: number;
  delayP99Us: number;
  packets: number;
  reason: string;
}

/** `voice.playing` — what this connection hears now. */
export interface VoicePlaying {
  callId: string;
  msId: string;
  kind?: CallKind;
  monitor?: boolean;
}

/** `call.invite` event — to the callee / each joined party. */
export interface CallInvite {
  callId: string;
  kind: CallKind;
  from: Person;
  status: number;
  gName?: string;
}

export interface FloorReply {
  callId: string;
  status: 'granted' | 'queued';
  position?: number;
  maxTalkMs: number;
  pressToGrantUs?: number;
}

export interface FloorTarget {
  callId?: string;
  gid?: string;
}

export interface MonitorState {
  groups: string[];
  terminal: string;
}

/** A call record (one talk burst) of `/ds/data/callByUTC(Post)` and `voicePost`. */
export interface VoiceRecord {
  id: string;
  callid: string;
  btime: number;
  etime: number;
  type: CallKind;
  gid?: string;
  gName?: string;
  peers?: string;
  msId: string;
  msName: string;
  duration: number;
  quality: 'HD' | 'SD' | string;
  size: number;
  playable?: boolean;
  url?: string;
  accessUs?: number;
  firstPacketUs?: number;
  delayP99Us?: number;
}

/** Spec §9: SD records can be neither played nor downloaded. */
export function canPlay(r: Pick<VoiceRecord, 'quality' | 'playable' | 'url'>): boolean {
  return String(r.quality).toUpperCase() !== 'SD' && r.playable !== false && !!r.url;
}

/** Playback priority setting of the console → `voice.priority` mode. */
export type PriorityMode = 'first' | 'latest' | 'ptt' | 'dispatcher';

/** Microseconds as a short human figure: "0.3 ms", "12 ms", "1.2 s". */
export function fmtUs(us: number | undefined): string {
  if (us == null || !Number.isFinite(us) || us < 0) return '—';
  const ms = us / 1000;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Milliseconds as m:ss. */
export function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
