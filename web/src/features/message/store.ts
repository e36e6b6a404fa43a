// The console's message state: every message the screens loaded or the socket brought (merged by id), the
// unread list (spec §4) and the sends in flight. One live subscription serves the badge in the shell and the
// /message screens (ref-counted), so a window counts each event once.
import { create } from 'zustand';
import { live, onResync, useLiveStatus } from '../../shared/socket/live';
import { useSession } from '../../shared/session';
import { useSettings } from '../../shared/settings';
import { messageApi, type ReadSelector } from './api';
import { mergeMessage, type ConvKey, type LocalSend, type Message, type ReadEvent, isUnreadFor } from './model';
import { applyRead, applyReceived, applySnapshot, beginSnapshot, emptyUnread, unreadCounts, type UnreadState } from './unread';
import { playMessageSound } from './sound';

export interface MessageState {
  /** The dispatcher these messages were loaded for. */
  owner?: string;
  messages: Record<string, Message>;
  unread: UnreadState;
  locals: LocalSend[];
  unreadLoaded: boolean;
}

export const useMessages = create<MessageState>(() => ({ messages: {}, unread: emptyUnread(), locals: [], unreadLoaded: false }));

export const me = (): string => String(useSession.getState().session?.userInfo?.msId ?? '');

/** Starts over when another dispatcher signed in in this window. */
function ensureOwner(): void {
  const owner = me();
  if (useMessages.getState().owner !== owner) useMessages.setState({ owner, messages: {}, unread: emptyUnread(), locals: [], unreadLoaded: false });
}

/** Adds or updates messages (from REST or events). */
export function upsertMessages(list: Message[]): void {
  if (!list.length) return;
  ensureOwner();
  useMessages.setState((s) => {
    const messages = { ...s.messages };
    const now = Date.now();
    for (const raw of list) {
      const m = normaliseMessage(raw);
      messages[m.id] = mergeMessage(messages[m.id], { ...m, seenAt: messages[m.id]?.seenAt ?? now });
    }
    return { messages };
  });
}

/** Ids and numbers arrive as strings or numbers; the console keeps strings for ids and numbers for times. */
export function normaliseMessage(m: Message): Message {
  return {
    ...m,
    id: String(m.id),
    sender: String(m.sender ?? m.from ?? ''),
    msId: m.msId ? String(m.msId) : undefined,
    gid: m.gid ? String(m.gid) : undefined,
    status: Number(m.status) === 0 ? 0 : 1,
    time: Number(m.time) || Date.parse(m.utctime ?? '') || 0,
    content: m.content ?? '',
    type: m.type ?? 'text',
  };
}

function onReceived(raw: Message) {
  ensureOwner();
  const m = normaliseMessage({ ...raw, incoming: raw.incoming ?? true });
  upsertMessages([m]);
  const before = useMessages.getState().unread;
  const after = applyReceived(before, m, me());
  if (after !== before) {
    useMessages.setState({ unread: after });
    if (useSettings.getState().sounds?.message) playMessageSound(useSettings.getState().noticeVolume);
  }
}

function onRead(e: ReadEvent) {
  ensureOwner();
  const ids = (e.ids ?? []).map(String);
  useMessages.setState((s) => {
    const messages = { ...s.messages };
    for (const id of ids) {
      const m = messages[id];
      if (m) messages[id] = { ...m, status: 1, readBy: e.by ?? m.readBy, readAt: e.readAt ?? m.readAt };
    }
    return { messages, unread: applyRead(s.unread, { ...e, ids }) };
  });
}

let snapshotRun = 0;
/** Loads the unread list (start, reconnect). */
export async function loadUnread(): Promise<void> {
  ensureOwner();
  const run = ++snapshotRun;
  useMessages.setState((s) => ({ unread: beginSnapshot(s.unread) }));
  try {
    const a = await messageApi.unread();
    if (run !== snapshotRun) return;
    ensureOwner();
    upsertMessages((a.list ?? []).map((m) => ({ ...m, incoming: m.incoming ?? true })));
    useMessages.setState((s) => ({ unread: applySnapshot(s.unread, a, me()), unreadLoaded: true }));
  } catch {
    /* the badge keeps what it had; the next reconnect or visit loads again */
  }
}

let users = 0;
let stop: (() => void) | undefined;

/** Subscribes this window to the message events (once, however many components ask). Returns the release. */
export function retainMessageSync(): () => void {
  users++;
  if (users === 1) {
    ensureOwner();
    const sock = live();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void loadUnread(), 200);
    };
    let last = useLiveStatus.getState().status;
    const offs = [
      sock.on<Message>('sms.received', (e) => onReceived(e.data)),
      sock.on<Message>('sms.status', (e) => upsertMessages([e.data])),
      sock.on<ReadEvent>('sms.read', (e) => onRead(e.data)),
      onResync(reload),
      // The first socket login too: events between the REST answer and the login would be missed.
      useLiveStatus.subscribe((s) => {
        if (s.status === 'online' && last !== 'online') reload();
        last = s.status;
      }),
    ];
    void loadUnread();
    stop = () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users--;
    if (users === 0) {
      stop?.();
      stop = undefined;
    }
  };
}

/** Marks messages read (a conversation, ids, or all); the durable sms.read event reaches every window. */
export async function markRead(sel: ReadSelector): Promise<number> {
  const a = await messageApi.markRead(sel);
  if (a.ids?.length) onRead({ ids: a.ids, by: me(), ...('msId' in sel ? { msId: sel.msId } : {}), ...('gid' in sel ? { gid: sel.gid } : {}) });
  return a.updated ?? 0;
}

export function markConversationRead(key: ConvKey): Promise<number> {
  return markRead(key.startsWith('g:') ? { gid: key.slice(2) } : { msId: key.slice(2) });
}

/** Badge numbers. */
export function useUnreadCounts() {
  const unread = useMessages((s) => s.unread);
  return unreadCounts(unread);
}

export function useUnreadTotal(): number {
  return useMessages((s) => unreadCounts(s.unread).total);
}

let localSeq = 0;
export function addLocal(l: Omit<LocalSend, 'localId' | 'done'>): string {
  const localId = `local-${Date.now()}-${++localSeq}`;
  useMessages.setState((s) => ({ locals: [...s.locals, { ...l, localId, done: false }] }));
  return localId;
}

export function updateLocal(localId: string, patch: Partial<LocalSend>): void {
  useMessages.setState((s) => ({ locals: s.locals.map((l) => (l.localId === localId ? { ...l, ...patch } : l)) }));
}

export function removeLocal(localId: string): void {
  useMessages.setState((s) => ({ locals: s.locals.filter((l) => l.localId !== localId) }));
}

export { isUnreadFor };
