// Directory entities (spec §3; docs/api.md "Directory").
export type Online = '1' | '0';

export interface Terminal {
  cid: string;
  name: string;
  type: string;
  online: Online;
  /** The terminal's current (ptt) group. */
  grp: string;
  lat?: number;
  lng?: number;
  speed?: number;
  battery?: number;
  signal?: number;
  model?: string;
  lastGps?: number;
  /** 0 killed, 1 stunned, 8 active (spec §4). */
  callSetStatus?: number;
  avatar?: string;
  lastOnline?: number;
  lastOffline?: number;
  /** 'sip' for an account that connects over SIP (a desk phone, softphone or radio gateway); absent otherwise. */
  kind?: 'sip' | null;
}

export type GroupKind = 'fixed' | 'temp';

export interface GroupDto {
  gid: string;
  fid: string;
  name: string;
  color?: string;
  seqNum?: number;
  deep?: number;
  kind?: GroupKind;
  creator?: string;
  /** A temp group's creator by name (the server reads it with the group). */
  creatorName?: string;
  memberCount?: number;
  onlineCount?: number;
  children?: GroupDto[];
  msList?: Terminal[];
  /** Compact form: rows in `cols` order. */
  ms?: unknown[][];
}

export interface Group {
  gid: string;
  fid: string;
  name: string;
  color?: string;
  seqNum: number;
  kind: GroupKind;
  creator?: string;
  creatorName?: string;
  members: string[];
}

export const CALL_SET = { killed: 0, stunned: 1, active: 8 } as const;

export type TerminalKind = 'dispatcher' | 'app' | 'gateway' | 'radio' | 'sos' | 'camera' | 'other';

/** Terminal types by code (spec §3): 20 dispatcher, 10 app, 8 gateway, 6/0/PMR/DMR radio, 505 SoS, camera. */
export function terminalKind(type: string): TerminalKind {
  switch (String(type).toUpperCase()) {
    case '20':
      return 'dispatcher';
    case '10':
      return 'app';
    case '8':
      return 'gateway';
    case '6':
    case '0':
    case 'PMR':
    case 'DMR':
      return 'radio';
    case '505':
      return 'sos';
    case 'CAMERA':
      return 'camera';
    default:
      return 'other';
  }
}

export const isDispatcher = (t: Terminal) => String(t.type) === '20';
