// The phone app's session: a terminal account (type 10, App) on the terminal protocol (docs/terminal-protocol.md),
// with the shared voice engine for PTT and calls, positions from the Geolocation API at the interval the server
// sets, SOS, the message inbox and the lone-worker check-in.
import { create } from 'zustand';
import { VoiceEngine } from '../shared/voice/engine';
import { seal, unseal, type Sealed } from '../shared/utils/secret';
import { TerminalSocket, TermError, termSocketUrl, type TermStatus } from './socket';

export interface PhoneGroup {
  gid: string;
  fid?: string;
  name: string;
  kind?: string;
}

export interface InboxMessage {
  id: string;
  from: string;
  fromName: string;
  gid?: string;
  content: string;
  type: string;
  time: number;
  file?: { id: string; kind: string; name?: string; url?: string };
  /** Sent by this app (a reply to the dispatch center). */
  mine?: boolean;
  read?: boolean;
}

export type LocationState = 'off' | 'waiting' | 'ok' | 'denied' | 'unsupported';

export interface Fix {
  lat: number;
  lng: number;
  speed?: number;
  direction?: number;
  altitude?: number;
  time: number;
}

export interface PhoneState {
  phase: 'login' | 'connecting' | 'ready';
  uid?: string;
  status: TermStatus;
  loginError?: string;
  groups: PhoneGroup[];
  pttGroup: string;
  gId: string;
  /** Spec §4 call-set status: 0 killed, 1 stunned, 8 active. */
  callSet: number;
  gpsIntervalS: number;
  location: { wanted: boolean; state: LocationState; last?: Fix; sentAt?: number; sent: number };
  inbox: InboxMessage[];
  sos: { state: 'idle' | 'sending' | 'open' | 'acked'; id?: string; responder?: string; error?: string };
  lonework: { workId: string; deadline: number; countdown: number; skewMs: number } | null;
  notice?: { key: string; vars?: Record<string, string | number>; at: number };
}

export const DEFAULT_GPS_INTERVAL_S = 30;
const ACCOUNT_KEY = 'tenfour.app.account';
const LOCATION_KEY = 'tenfour.app.location';
const inboxKey = (uid: string) => `tenfour.app.inbox.${uid}`;
const MAX_INBOX = 200;
const MAX_BUFFER = 500;

function readLS<T>(key: string): T | undefined {
  try {
    const s = localStorage.getItem(key);
    return s ? (JSON.parse(s) as T) : undefined;
  } catch {
    return undefined;
  }
}
function writeLS(key: string, v: unknown) {
  try {
    if (v === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(v));
  } catch {
    /* quota or private mode */
  }
}

const initial = (): PhoneState => ({
  phase: 'login',
  status: 'idle',
  groups: [],
  pttGroup: '',
  gId: '',
  callSet: 8,
  gpsIntervalS: DEFAULT_GPS_INTERVAL_S,
  location: { wanted: readLS<boolean>(LOCATION_KEY) ?? true, state: 'off', sent: 0 },
  inbox: [],
  sos: { state: 'idle' },
  lonework: null,
});

export const usePhone = create<PhoneState>(() => initial());
const set = (p: Partial<PhoneState> | ((s: PhoneState) => Partial<PhoneState>)) => usePhone.setState(p as Partial<PhoneState>);

let sock: TerminalSocket | undefined;
let engine: VoiceEngine | undefined;
let watchId: number | undefined;
let gpsTimer: ReturnType<typeof setInterval> | undefined;
let statusTimer: ReturnType<typeof setInterval> | undefined;
let buffer: Fix[] = [];
let battery: { level: number; addEventListener: (t: string, fn: () => void) => void } | undefined;

export function phoneEngine(): VoiceEngine | undefined {
  return engine;
}

export function notify(key: string, vars?: Record<string, string | number>): void {
  set({ notice: { key, vars, at: Date.now() } });
}

// ── sign-in ──

export async function signIn(uid: string, password: string, remember = true): Promise<boolean> {
  set({ phase: 'connecting', loginError: undefined, uid });
  const s = new TerminalSocket({
    url: termSocketUrl(),
    uid,
    auth: password,
    onStatus: (status) => set({ status }),
    onLogin: (_r, again) => {
      if (again) void afterLogin(true);
    },
    onRejected: (code) => {
      if (usePhone.getState().phase !== 'ready') return;
      teardown();
      set({ ...initial(), loginError: code === '7' ? 'replaced' : code, uid });
      if (code !== '7') writeLS(ACCOUNT_KEY, undefined);
    },
  });
  handleRequests(s);
  try {
    await s.start();
  } catch (e) {
    s.stop();
    const code = e instanceof TermError ? e.code : 'failed';
    set({ phase: 'login', loginError: code === '503' || code === '4' ? 'network' : code });
    return false;
  }
  sock = s;
  engine = new VoiceEngine(s, { me: () => uid });
  window.tenfourVoice = engine;
  engine.start();
  set({ phase: 'ready', inbox: readLS<InboxMessage[]>(inboxKey(uid)) ?? [] });
  if (remember) {
    const secret = await seal(password);
    writeLS(ACCOUNT_KEY, secret ? { uid, secret } : { uid });
  } else writeLS(ACCOUNT_KEY, { uid });
  void afterLogin(false);
  startLocation();
  void startBattery();
  return true;
}

/** The stored account: the id always, the password when it could be kept sealed. */
export async function storedAccount(): Promise<{ uid: string; password?: string } | undefined> {
  const a = readLS<{ uid: string; secret?: Sealed }>(ACCOUNT_KEY);
  if (!a?.uid) return undefined;
  return { uid: a.uid, password: a.secret ? await unseal(a.secret) : undefined };
}

function teardown() {
  engine?.stop();
  engine = undefined;
  delete window.tenfourVoice;
  sock?.stop();
  sock = undefined;
  stopLocation();
  clearInterval(statusTimer);
  buffer = [];
}

export function signOut(): void {
  teardown();
  const a = readLS<{ uid: string }>(ACCOUNT_KEY);
  writeLS(ACCOUNT_KEY, a?.uid ? { uid: a.uid } : undefined);
  set({ ...initial() });
}

async function afterLogin(again: boolean) {
  if (again) engine?.resync();
  await loadGroups();
  flushBuffer();
  // An SOS raised while offline is sent again (the server treats a repeat as the same alarm).
  if (usePhone.getState().sos.state === 'sending') void raiseSos();
}

async function loadGroups() {
  try {
    const g = await sock!.request<{ groups: PhoneGroup[]; pttGroup: string; gId: string }>('group.list', {});
    set({ groups: g.groups ?? [], pttGroup: String(g.pttGroup ?? ''), gId: String(g.gId ?? '') });
  } catch {
    /* next login */
  }
}

export async function switchGroup(gid: string): Promise<void> {
  if (!sock) return;
  try {
    await sock.request('group.switch', { gid });
    set({ pttGroup: gid });
    engine?.setTarget(undefined);
  } catch (e) {
    notify('errors.switch', { code: e instanceof TermError ? e.code : 'failed' });
  }
}

// ── server requests and events ──

function handleRequests(s: TerminalSocket) {
  s.handle('sms.deliver', (d) => {
    const m = d as unknown as InboxMessage;
    const uid = usePhone.getState().uid ?? '';
    set((st) => {
      if (st.inbox.some((x) => x.id === String(m.id) && !x.mine)) return {}; // a repeat: acknowledge, show once
      const inbox = [{ ...m, id: String(m.id), read: false }, ...st.inbox].slice(0, MAX_INBOX);
      writeLS(inboxKey(uid), inbox);
      return { inbox, notice: { key: 'messages.new', vars: { name: m.fromName || m.from }, at: Date.now() } };
    });
    navigator.vibrate?.(200);
  });
  s.handle('call.set', (d) => {
    const status = Number(d.status);
    set({ callSet: status });
    // Killed or stunned: neither talk nor hear (spec §4).
    if (status !== 8) engine?.release();
    engine?.setMuted(status !== 8);
  });
  s.handle('param.set', (d) => {
    const seconds = (d.seconds ?? {}) as Record<string, number>;
    if (seconds.gpsInterval > 0) {
      set({ gpsIntervalS: seconds.gpsInterval });
      scheduleGps();
    }
    if (seconds.heartbeat > 0) s.setHeartbeat(seconds.heartbeat);
    if (seconds.statusInterval > 0) scheduleStatus(seconds.statusInterval);
  });
  s.handle('group.switch', (d) => {
    set({ pttGroup: String(d.gid), notice: { key: 'groups.remoteSwitch', vars: { name: String(d.name ?? d.gid) }, at: Date.now() } });
    engine?.setTarget(undefined);
  });
  s.handle('sos.stop', () => {
    set({ sos: { state: 'idle' }, notice: { key: 'sos.closed', at: Date.now() } });
  });
  s.handle('lonework.check', (d) => {
    const serverTime = Number(d.serverTime ?? Date.now());
    set({ lonework: { workId: String(d.workId), deadline: Number(d.deadline), countdown: Number(d.countdown), skewMs: Date.now() - serverTime } });
    navigator.vibrate?.([300, 100, 300]);
  });
  s.handle('monitor.start', () => {
    if (!engine || engine.link.status !== 'connected') return { code: '502', msg: 'no media connection' };
    engine.setMonitored(true);
  });
  s.handle('tone.play', (d) => {
    if (usePhone.getState().callSet !== 8) return { code: '486', msg: 'blocked' };
    const url = String(d.fileUrl ?? '');
    if (url) void new Audio(url).play().catch(() => {});
    set({ notice: { key: 'messages.tone', vars: { name: String(d.name ?? '') }, at: Date.now() } });
  });
  s.on('monitor.stop', () => engine?.setMonitored(false));
  s.on<{ groups: PhoneGroup[]; pttGroup: string; gId: string }>('group.changed', (e) =>
    set({ groups: e.data.groups ?? [], pttGroup: String(e.data.pttGroup ?? ''), gId: String(e.data.gId ?? '') }),
  );
  s.on<{ id: string; responderName?: string; responder?: string }>('sos.acked', (e) =>
    set((st) => ({ sos: { ...st.sos, state: 'acked', id: String(e.data.id), responder: e.data.responderName || e.data.responder } })),
  );
  s.on('sos.closed', () => set({ sos: { state: 'idle' }, notice: { key: 'sos.closed', at: Date.now() } }));
  s.on('lonework.end', () => set({ lonework: null }));
}

// ── SOS ──

export async function raiseSos(): Promise<void> {
  if (!sock) return;
  const last = usePhone.getState().location.last;
  set((st) => ({ sos: { ...st.sos, state: st.sos.state === 'idle' ? 'sending' : st.sos.state, error: undefined } }));
  navigator.vibrate?.([500, 200, 500]);
  try {
    const r = await sock.request<{ id: string; state: number }>('sos.raise', { type: '3', ...(last ? { lat: last.lat, lng: last.lng } : {}) });
    set((st) => ({ sos: { ...st.sos, state: r.state === 1 ? 'acked' : st.sos.state === 'acked' ? 'acked' : 'open', id: String(r.id) } }));
  } catch (e) {
    // Kept as "sending": sent again after the next login.
    set((st) => ({ sos: { ...st.sos, error: e instanceof TermError ? e.code : 'failed' } }));
  }
}

export async function cancelSos(): Promise<void> {
  const id = usePhone.getState().sos.id;
  if (!sock) return;
  try {
    await sock.request('sos.cancel', id ? { id } : {});
  } catch (e) {
    if (!(e instanceof TermError && e.code === '91')) {
      notify('errors.generic', { code: e instanceof TermError ? e.code : 'failed' });
      return;
    }
  }
  set({ sos: { state: 'idle' } });
}

// ── lone worker ──

export async function checkIn(): Promise<void> {
  const lw = usePhone.getState().lonework;
  if (!sock || !lw) return;
  try {
    await sock.request('lonework.checkin', { workId: lw.workId });
    set({ lonework: null, notice: { key: 'lonework.thanks', at: Date.now() } });
  } catch (e) {
    notify('errors.generic', { code: e instanceof TermError ? e.code : 'failed' });
  }
}

// ── messages ──

export function markRead(): void {
  const { uid, inbox } = usePhone.getState();
  if (!uid || !inbox.some((m) => !m.read)) return;
  const next = inbox.map((m) => (m.read ? m : { ...m, read: true }));
  writeLS(inboxKey(uid), next);
  set({ inbox: next });
}

/** A message to the dispatch center (every dispatcher). */
export async function sendMessage(content: string): Promise<boolean> {
  if (!sock || !content.trim()) return false;
  try {
    const r = await sock.request<{ id: string; time: number }>('sms.send', { content });
    const { uid } = usePhone.getState();
    set((st) => {
      const inbox = [{ id: `out-${r.id}`, from: uid ?? '', fromName: '', content, type: 'text', time: r.time || Date.now(), mine: true, read: true }, ...st.inbox].slice(0, MAX_INBOX);
      writeLS(inboxKey(uid ?? ''), inbox);
      return { inbox };
    });
    return true;
  } catch (e) {
    notify('errors.send', { code: e instanceof TermError ? e.code : 'failed' });
    return false;
  }
}

// ── location ──

export function setLocationWanted(on: boolean): void {
  writeLS(LOCATION_KEY, on);
  set((s) => ({ location: { ...s.location, wanted: on } }));
  if (on) startLocation();
  else stopLocation();
}

function startLocation() {
  const st = usePhone.getState();
  if (!st.location.wanted || watchId !== undefined || st.phase !== 'ready') return;
  if (!navigator.geolocation) {
    set((s) => ({ location: { ...s.location, state: 'unsupported' } }));
    return;
  }
  set((s) => ({ location: { ...s.location, state: 'waiting' } }));
  watchId = navigator.geolocation.watchPosition(
    (p) => {
      const first = !usePhone.getState().location.last;
      const fix: Fix = {
        lat: p.coords.latitude,
        lng: p.coords.longitude,
        time: p.timestamp || Date.now(),
        ...(p.coords.speed != null && p.coords.speed >= 0 ? { speed: p.coords.speed } : {}),
        ...(p.coords.heading != null && p.coords.heading >= 0 ? { direction: p.coords.heading } : {}),
        ...(p.coords.altitude != null ? { altitude: p.coords.altitude } : {}),
      };
      set((s) => ({ location: { ...s.location, state: 'ok', last: fix } }));
      if (first) sendFix(); // the dispatcher sees the position at once, then every gpsInterval
    },
    (err) => set((s) => ({ location: { ...s.location, state: err.code === err.PERMISSION_DENIED ? 'denied' : 'waiting' } })),
    { enableHighAccuracy: true, maximumAge: 5_000, timeout: 60_000 },
  );
  scheduleGps();
}

function stopLocation() {
  if (watchId !== undefined) navigator.geolocation?.clearWatch(watchId);
  watchId = undefined;
  clearInterval(gpsTimer);
  gpsTimer = undefined;
  set((s) => ({ location: { ...s.location, state: 'off' } }));
}

function scheduleGps() {
  clearInterval(gpsTimer);
  if (watchId === undefined) return;
  gpsTimer = setInterval(sendFix, usePhone.getState().gpsIntervalS * 1000);
}

/** Sends the newest fix (a position report per interval); offline, fixes are kept and sent as a batch later. */
function sendFix() {
  const st = usePhone.getState();
  const fix = st.location.last;
  if (!fix) return;
  const point = { ...fix, lat: round6(fix.lat), lng: round6(fix.lng), time: Math.min(fix.time, Date.now()) };
  if (!sock || sock.status !== 'online') {
    if (!buffer.length || buffer[buffer.length - 1]!.time !== point.time) buffer = [...buffer, point].slice(-MAX_BUFFER);
    return;
  }
  sock.request('gps.report', point).then(
    () => set((s) => ({ location: { ...s.location, sentAt: Date.now(), sent: s.location.sent + 1 } })),
    () => {
      buffer = [...buffer, point].slice(-MAX_BUFFER);
    },
  );
}

function flushBuffer() {
  if (!sock || !buffer.length) return;
  const points = buffer;
  buffer = [];
  sock.request('gps.report', { points }).catch(() => {
    buffer = [...points, ...buffer].slice(-MAX_BUFFER);
  });
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

// ── battery (status.report) ──

async function startBattery() {
  const nav = navigator as Navigator & { getBattery?: () => Promise<typeof battery> };
  try {
    battery = await nav.getBattery?.();
  } catch {
    battery = undefined;
  }
  if (!battery) return;
  battery.addEventListener('levelchange', sendStatus);
  sendStatus();
  scheduleStatus(600);
}

function scheduleStatus(seconds: number) {
  clearInterval(statusTimer);
  if (battery) statusTimer = setInterval(sendStatus, seconds * 1000);
}

function sendStatus() {
  if (!battery || !sock || sock.status !== 'online') return;
  sock.request('status.report', { battery: Math.round(battery.level * 100) }).catch(() => {});
}

/** The page came back to the foreground: reconnect now instead of waiting for the backoff. */
export function wake(): void {
  sock?.kick();
}
