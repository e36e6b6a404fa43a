// The alarm interrupt's live state: fed by the socket (sos.alarm, sos.realert, sos.updated, lonework.alarm,
// lonework.alarmUpdated — the durable ones replayed by `sync` after a reconnect) and by the open alarms loaded
// over REST at start and whenever the socket comes (back) online. Every window of the console runs its own copy;
// lone-work alarms put aside in one window are put aside in all (localStorage + the storage event).
import { create } from 'zustand';
import { live, useLiveStatus } from '../socket/live';
import { loneAlarmApi, normaliseLoneAlarm, type LoneAlarm } from './lonework';
import { normaliseAlarm, sosApi, type SosAlarm } from './sos';
import {
  dismiss,
  emptyQueue,
  loneKey,
  markMine,
  onLoneAlarm,
  onLoneUpdated,
  onOpenLoaded,
  onSosUpdated,
  SOS_EVENTS,
  type AlarmQueueState,
  type ItemKey,
} from './queue';

interface AlarmStore extends AlarmQueueState {
  /** The open alarms were loaded at least once. */
  loaded: boolean;
}

export const useAlarms = create<AlarmStore>(() => ({ ...emptyQueue(), loaded: false }));

const apply = (fn: (s: AlarmQueueState) => AlarmQueueState) => useAlarms.setState((s) => fn(s));

/** Which alarm kinds this console handles (spec §6 gating: sosManage, workAlone). */
let gates = { sos: true, lonework: true };

// ---- lone-work alarms put aside, shared by the windows of this browser ----------------------------------------
const DISMISSED_KEY = 'tenfour.alarm.dismissed';
const DISMISSED_MAX = 500;

function readDismissed(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function isDismissed(id: string): boolean {
  return readDismissed().includes(id);
}

function addDismissed(id: string) {
  const list = readDismissed().filter((x) => x !== id);
  list.push(id);
  try {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(list.slice(-DISMISSED_MAX)));
  } catch {
    /* storage full or off: only this window forgets it */
  }
}

// ---- loading and watching -----------------------------------------------------------------------------------
let loading: Promise<void> | undefined;

/** Loads every open SOS alarm (GET findSos?open=1); concurrent calls share one request. */
export function loadOpen(): Promise<void> {
  if (!gates.sos) return Promise.resolve();
  loading ??= sosApi
    .open()
    .then((list) => {
      apply((s) => onOpenLoaded(s, list));
      useAlarms.setState({ loaded: true });
    })
    .catch(() => {
      /* the next reconnect loads again, and unacknowledged alarms are re-announced every 10 s meanwhile */
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

let watchers = 0;
let stopWatch: (() => void) | undefined;

/** Starts listening (idempotent; the returned function undoes one call). */
export function startAlarmWatch(g: { sos: boolean; lonework: boolean } = gates): () => void {
  gates = g;
  if (watchers++ === 0) {
    const c = live();
    const offs = [
      ...Object.entries(SOS_EVENTS).map(([type, reduce]) => c.on<SosAlarm>(type, (e) => gates.sos && apply((s) => reduce(s, normaliseAlarm(e.data))))),
      c.on<LoneAlarm>('lonework.alarm', (e) => gates.lonework && apply((s) => onLoneAlarm(s, normaliseLoneAlarm(e.data), isDismissed))),
      c.on<LoneAlarm>('lonework.alarmUpdated', (e) => gates.lonework && apply((s) => onLoneUpdated(s, normaliseLoneAlarm(e.data)))),
      // First login and every reconnect: what is open now (alarms raised or closed while away).
      useLiveStatus.subscribe((st, prev) => {
        if (st.status === 'online' && prev.status !== 'online') void loadOpen();
      }),
    ];
    const onStorage = (e: StorageEvent) => {
      if (e.key !== DISMISSED_KEY) return;
      const ids = new Set(readDismissed());
      apply((s) => s.queue.filter((k) => k.startsWith('lw:') && ids.has(k.slice(3))).reduce((acc, k) => dismiss(acc, k), s));
    };
    window.addEventListener('storage', onStorage);
    void loadOpen();
    stopWatch = () => {
      offs.forEach((off) => off());
      window.removeEventListener('storage', onStorage);
    };
  }
  return () => {
    if (--watchers === 0) {
      stopWatch?.();
      stopWatch = undefined;
    }
  };
}

// ---- actions ----------------------------------------------------------------------------------------------------

/** Acknowledge (state 1). Marked as this window's first, so the sos.updated that may beat the reply keeps it queued. */
export async function acknowledgeAlarm(id: string): Promise<SosAlarm> {
  apply((s) => markMine(s, id, true));
  try {
    const a = await sosApi.acknowledge(id);
    apply((s) => onSosUpdated(s, a));
    return a;
  } catch (e) {
    apply((s) => markMine(s, id, false));
    void loadOpen(); // refused ("90": someone else was first) or failed: take the server's view
    throw e;
  }
}

/** Close (state 2) with a remark; remote: the terminal is told to stop alarming and must confirm. */
export async function closeAlarm(id: string, remark: string, remote: boolean): Promise<SosAlarm> {
  const a = await sosApi.close(id, remark, remote);
  apply((s) => onSosUpdated(s, a));
  return a;
}

/** Puts an item aside (an SOS alarm in state 0 stays: it must be acknowledged). */
export function putAside(key: ItemKey): void {
  if (key.startsWith('lw:')) addDismissed(key.slice(3));
  apply((s) => dismiss(s, key));
}

/** Handles a lone-work alarm with a remark (PUT updateAlarm). */
export async function handleLoneAlarm(id: string, remark: string): Promise<LoneAlarm> {
  const a = await loneAlarmApi.updateAlarm(id, remark);
  apply((s) => onLoneUpdated(s, a));
  addDismissed(id);
  apply((s) => dismiss(s, loneKey(id)));
  return a;
}

export function silence(): void {
  useAlarms.setState({ silenced: true });
}

/** Tests start from scratch. */
export function resetAlarms(): void {
  useAlarms.setState({ ...emptyQueue(), loaded: false }, true);
}

// ---- the open SOS alarm of each terminal: what the map and its panels draw, read from this one store ------------
let byTerminalOf: Record<string, SosAlarm> | undefined;
let byTerminal: Record<string, SosAlarm> = {};

/** msId → its open SOS alarm (state 0 or 1; the newest when it has several). */
export function openSosByTerminal(sos: Record<string, SosAlarm> = useAlarms.getState().sos): Record<string, SosAlarm> {
  if (sos === byTerminalOf) return byTerminal;
  const out: Record<string, SosAlarm> = {};
  for (const a of Object.values(sos)) if (a.state < 2 && (!out[a.msId] || out[a.msId]!.time < a.time)) out[a.msId] = a;
  byTerminalOf = sos;
  byTerminal = out;
  return out;
}

export function useOpenSosByTerminal(): Record<string, SosAlarm> {
  return openSosByTerminal(useAlarms((s) => s.sos));
}
