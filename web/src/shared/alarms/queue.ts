// The alarm interrupt's state, as pure functions (the store applies them; queue.test.ts checks them).
//
// What interrupts: every SOS alarm in state 0 (nobody acknowledged it yet), and every lone-work alarm nobody
// handled that this console has not dismissed. An SOS alarm acknowledged *here* stays in the queue (the dispatcher
// goes on to locate, call or close it) until it is closed or put aside; acknowledged by someone else, it leaves.
import type { SosAlarm } from './sos';
import type { LoneAlarm } from './lonework';

export type ItemKey = `sos:${string}` | `lw:${string}`;

export interface AlarmQueueState {
  /** Every SOS alarm the console knows of that is open, and the ones closed while queued here. */
  sos: Record<string, SosAlarm>;
  /** Lone-work alarms waiting in the queue. */
  lone: Record<string, LoneAlarm>;
  /** What interrupts, oldest first. */
  queue: ItemKey[];
  /** SOS alarms acknowledged from this window (they stay in the queue after state 1). */
  mine: Record<string, true>;
  /** The dispatcher silenced the sound; a new alarm or a re-alert rings again. */
  silenced: boolean;
  /** Bumped on every new alert (a new alarm, a re-alert): the notification and the modal follow it. */
  alerts: number;
  /** The last alerted item. */
  lastAlert?: ItemKey;
}

export const emptyQueue = (): AlarmQueueState => ({ sos: {}, lone: {}, queue: [], mine: {}, silenced: false, alerts: 0 });

export const sosKey = (id: string): ItemKey => `sos:${id}`;
export const loneKey = (id: string): ItemKey => `lw:${id}`;

function without(queue: ItemKey[], key: ItemKey): ItemKey[] {
  return queue.includes(key) ? queue.filter((k) => k !== key) : queue;
}

function alert(s: AlarmQueueState, key: ItemKey): AlarmQueueState {
  return { ...s, queue: s.queue.includes(key) ? s.queue : [...s.queue, key], silenced: false, alerts: s.alerts + 1, lastAlert: key };
}

/** A record never goes back (0 → 1 → 2): an older copy (a replay, a late answer) does not undo a newer one. */
function newer(prev: SosAlarm | undefined, next: SosAlarm): SosAlarm {
  if (!prev || next.state >= prev.state) return next;
  return prev;
}

/** Places one SOS record: queued while it is 0, kept while it is 1 and acknowledged here, else out. */
function place(s: AlarmQueueState, incoming: SosAlarm, alertIfNew: boolean): AlarmQueueState {
  const a = newer(s.sos[incoming.id], incoming);
  const key = sosKey(a.id);
  const sos = { ...s.sos, [a.id]: a };
  if (a.state === 0) {
    const known = s.queue.includes(key);
    const next = { ...s, sos };
    return known || !alertIfNew ? { ...next, queue: known ? s.queue : [...s.queue, key] } : alert(next, key);
  }
  if (a.state === 1 && s.mine[a.id]) return { ...s, sos };
  const mine = { ...s.mine };
  delete mine[a.id];
  if (a.state === 2) delete sos[a.id];
  return { ...s, sos, mine, queue: without(s.queue, key) };
}

/** `sos.alarm`: a new alarm (or the replay of one). */
export function onSosAlarm(s: AlarmQueueState, a: SosAlarm): AlarmQueueState {
  return place(s, a, true);
}

/** `sos.updated`: acknowledged or closed, here or elsewhere. */
export function onSosUpdated(s: AlarmQueueState, a: SosAlarm): AlarmQueueState {
  return place(s, a, false);
}

/** `sos.realert`: still unacknowledged — ring again (also when it was missed or silenced). */
export function onSosRealert(s: AlarmQueueState, a: SosAlarm): AlarmQueueState {
  const next = place(s, a, false);
  const cur = next.sos[a.id];
  if (!cur || cur.state !== 0) return next;
  return alert(next, sosKey(a.id));
}

/** The reducer of each SOS socket event (the alarm store subscribes to them all alike). */
export const SOS_EVENTS = { 'sos.alarm': onSosAlarm, 'sos.updated': onSosUpdated, 'sos.realert': onSosRealert } as const;

/**
 * The open alarms loaded from REST (start, reconnect): authoritative for what is open. Alarms queued here that
 * are no longer open were closed while the console was away; they leave the queue.
 */
export function onOpenLoaded(s: AlarmQueueState, open: SosAlarm[]): AlarmQueueState {
  const ids = new Set(open.map((a) => a.id));
  let next: AlarmQueueState = s;
  for (const [id, a] of Object.entries(s.sos)) {
    if (!ids.has(id) && a.state < 2) next = place(next, { ...a, state: 2 }, false);
  }
  const before = new Set(next.queue);
  for (const a of open) next = place(next, a, false);
  const fresh = next.queue.filter((k) => !before.has(k));
  return fresh.length ? alert(next, fresh[fresh.length - 1]!) : next;
}

/** This window is about to acknowledge: keep the alarm after it turns 1 (set before the request, undone on failure). */
export function markMine(s: AlarmQueueState, id: string, mine: boolean): AlarmQueueState {
  const m = { ...s.mine };
  if (mine) m[id] = true;
  else delete m[id];
  return { ...s, mine: m };
}

/** Puts an item aside. An SOS alarm still in state 0 cannot be put aside: it must be acknowledged. */
export function dismiss(s: AlarmQueueState, key: ItemKey): AlarmQueueState {
  if (key.startsWith('sos:')) {
    const id = key.slice(4);
    if (s.sos[id]?.state === 0) return s;
    const mine = { ...s.mine };
    delete mine[id];
    return { ...s, mine, queue: without(s.queue, key) };
  }
  const id = key.slice(3);
  const lone = { ...s.lone };
  delete lone[id];
  return { ...s, lone, queue: without(s.queue, key) };
}

const handled = (a: LoneAlarm) => !!a.handleTime || !!a.handler;

/** `lonework.alarm`: a worker did not answer, went offline… — ring unless handled or dismissed already. */
export function onLoneAlarm(s: AlarmQueueState, a: LoneAlarm, dismissed: (id: string) => boolean): AlarmQueueState {
  if (handled(a) || dismissed(a.id)) return s;
  const key = loneKey(a.id);
  if (s.queue.includes(key)) return { ...s, lone: { ...s.lone, [a.id]: a } };
  return alert({ ...s, lone: { ...s.lone, [a.id]: a } }, key);
}

/** `lonework.alarmUpdated`: a dispatcher handled it. */
export function onLoneUpdated(s: AlarmQueueState, a: LoneAlarm): AlarmQueueState {
  if (!handled(a)) return s.lone[a.id] ? { ...s, lone: { ...s.lone, [a.id]: a } } : s;
  return dismiss(s, loneKey(a.id));
}

/** The sound rings while an SOS alarm waits for acknowledgement or a lone-work alarm waits, unless silenced. */
export function isRinging(s: AlarmQueueState): boolean {
  if (s.silenced) return false;
  return s.queue.some((k) => (k.startsWith('sos:') ? s.sos[k.slice(4)]?.state === 0 : true));
}

/** How many items still demand an answer (SOS in state 0, lone-work alarms). */
export function pendingCount(s: AlarmQueueState): number {
  return s.queue.filter((k) => (k.startsWith('sos:') ? s.sos[k.slice(4)]?.state === 0 : true)).length;
}

/** Open SOS alarms, newest first (the /alarm "open" tab). */
export function openAlarms(s: AlarmQueueState): SosAlarm[] {
  return Object.values(s.sos)
    .filter((a) => a.state < 2)
    .sort((a, b) => b.time - a.time);
}
