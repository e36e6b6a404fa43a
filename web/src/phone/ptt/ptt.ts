// Push-to-talk: the talk groups (the one PTT talks in), and the dispatcher's controls over this terminal — the
// call-set status (spec §4: killed or stunned neither talks nor hears), remote group switch, ambient monitoring
// and tones. The floor itself is the shared voice engine's (session/link.ts starts it).
import { create } from 'zustand';
import { phoneEngine, phoneSocket } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export interface PhoneGroup {
  gid: string;
  fid?: string;
  name: string;
  kind?: string;
}

export interface PttState {
  groups: PhoneGroup[];
  /** The group a bare press talks in. */
  pttGroup: string;
  gId: string;
  /** Spec §4 call-set status: 0 killed, 1 stunned, 8 active. */
  callSet: number;
}

export const CALL_SET_ACTIVE = 8;

const initial = (): PttState => ({ groups: [], pttGroup: '', gId: '', callSet: CALL_SET_ACTIVE });

export const usePtt = create<PttState>(initial);

export function resetPtt(): void {
  usePtt.setState(initial(), true);
}

/** Killed or stunned terminals neither talk nor hear. */
export const canTalk = (callSet: number) => callSet === CALL_SET_ACTIVE;

type GroupList = { groups?: PhoneGroup[]; pttGroup?: unknown; gId?: unknown };

function setGroups(g: GroupList) {
  usePtt.setState({ groups: g.groups ?? [], pttGroup: String(g.pttGroup ?? ''), gId: String(g.gId ?? '') });
}

/** After every login. */
export async function loadGroups(): Promise<void> {
  const sock = phoneSocket();
  if (!sock) return;
  try {
    setGroups(await sock.request<GroupList>('group.list', {}));
  } catch {
    /* next login */
  }
}

export async function switchGroup(gid: string): Promise<void> {
  const sock = phoneSocket();
  if (!sock) return;
  try {
    await sock.request('group.switch', { gid });
    usePtt.setState({ pttGroup: gid });
    phoneEngine()?.setTarget(undefined);
  } catch (e) {
    notify('errors.switch', { code: codeOf(e) });
  }
}

/** A press of the button or key: only while active. */
export function press(): void {
  if (canTalk(usePtt.getState().callSet)) phoneEngine()?.press();
}

export function release(): void {
  phoneEngine()?.release();
}

export function attachPtt(s: TerminalSocket): void {
  s.handle('call.set', (d) => {
    const status = Number(d.status);
    usePtt.setState({ callSet: status });
    const engine = phoneEngine();
    if (!canTalk(status)) engine?.release();
    engine?.setMuted(!canTalk(status));
  });
  s.handle('group.switch', (d) => {
    usePtt.setState({ pttGroup: String(d.gid) });
    notify('groups.remoteSwitch', { name: String(d.name ?? d.gid) });
    phoneEngine()?.setTarget(undefined);
  });
  s.on<GroupList>('group.changed', (e) => setGroups(e.data));
  s.handle('monitor.start', () => {
    const engine = phoneEngine();
    if (!engine || engine.link.status !== 'connected') return { code: '502', msg: 'no media connection' };
    engine.setMonitored(true);
  });
  s.on('monitor.stop', () => phoneEngine()?.setMonitored(false));
  s.handle('turn.config', (d) => {
    const servers = d.iceServers;
    if (!Array.isArray(servers) || servers.length === 0) return { code: '400', msg: 'no iceServers' };
    const engine = phoneEngine();
    if (!engine) return { code: '502', msg: 'no media engine' };
    engine.link.setTurn(servers as RTCIceServer[]); // the next connection relays through them
  });
  s.handle('tone.play', (d) => {
    if (!canTalk(usePtt.getState().callSet)) return { code: '486', msg: 'blocked' };
    const url = String(d.fileUrl ?? '');
    if (url) void new Audio(url).play().catch(() => {});
    notify('messages.tone', { name: String(d.name ?? '') });
  });
}
