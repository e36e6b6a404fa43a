// The dispatcher's unread list (spec §4 "unread list: add on type b, remove on type n"; docs/messages.md §1):
// `GET /ds/sms/unread` at start and after a resync, `sms.received` adds (type b), `sms.read` removes (type n).
// Pure state transitions; the zustand store in store.ts applies them.
import { conversationOf, isUnreadFor, type ConvKey, type Message, type ReadEvent } from './model';

export interface UnreadConversationDto {
  type: '1' | '2' | string;
  msId?: string;
  msName?: string;
  gid?: string;
  gName?: string;
  unreads: number;
  lastTime?: number;
}

export interface UnreadAnswer {
  total: number;
  list: Message[];
  conversations?: UnreadConversationDto[];
}

export interface UnreadState {
  /** Unread messages by id (the server lists at most 1,000, oldest first). */
  byId: Record<string, Message>;
  /** Unread messages the server counted but did not list (beyond 1,000), per conversation. */
  beyond: Partial<Record<ConvKey, number>>;
  /** Ids read since the last snapshot was asked for: a snapshot answered later must not bring them back. */
  readSince: Record<string, true>;
  /** Messages received since the last snapshot was asked for: a snapshot answered later may not list them yet. */
  receivedSince: Record<string, Message>;
}

export const emptyUnread = (): UnreadState => ({ byId: {}, beyond: {}, readSince: {}, receivedSince: {} });

/** Call when a `GET /ds/sms/unread` is sent: events from now on are kept to be applied over its answer. */
export function beginSnapshot(s: UnreadState): UnreadState {
  return { ...s, readSince: {}, receivedSince: {} };
}

export function convOfDto(c: UnreadConversationDto): ConvKey | undefined {
  if (String(c.type) === '2' && c.gid) return `g:${c.gid}`;
  if (c.msId) return `t:${c.msId}`;
  return undefined;
}

/** Type b: a terminal's message arrived. Only messages unread for `me` count. */
export function applyReceived(s: UnreadState, m: Message, me: string): UnreadState {
  if (!isUnreadFor(m, me) || s.byId[m.id] || s.readSince[m.id]) return s;
  return { ...s, byId: { ...s.byId, [m.id]: m }, receivedSince: { ...s.receivedSince, [m.id]: m } };
}

/** Type n: messages were read (by this dispatcher or another one: one status per message). */
export function applyRead(s: UnreadState, e: ReadEvent): UnreadState {
  const ids = (e.ids ?? []).map(String);
  const byId = { ...s.byId };
  const readSince = { ...s.readSince };
  let notListed = 0;
  for (const id of ids) {
    readSince[id] = true;
    if (byId[id]) delete byId[id];
    else notListed++;
  }
  let beyond = s.beyond;
  const key: ConvKey | undefined = e.gid ? `g:${e.gid}` : e.msId ? `t:${e.msId}` : undefined;
  if (notListed && key && beyond[key]) beyond = { ...beyond, [key]: Math.max(0, (beyond[key] ?? 0) - notListed) };
  return { ...s, byId, beyond, readSince };
}

/** A fresh `GET /ds/sms/unread` answer; reads that happened while it was on its way are applied again. */
export function applySnapshot(s: UnreadState, a: UnreadAnswer, me: string): UnreadState {
  const byId: Record<string, Message> = {};
  for (const m of a.list ?? []) if (!s.readSince[m.id] && isUnreadFor({ ...m, incoming: m.incoming ?? true }, me)) byId[m.id] = m;
  // Messages that arrived as events while the snapshot was on its way stay.
  for (const [id, m] of Object.entries(s.receivedSince)) if (!s.readSince[id]) byId[id] = m;
  const listed: Partial<Record<ConvKey, number>> = {};
  for (const m of a.list ?? []) {
    const k = conversationOf({ ...m, incoming: true });
    listed[k] = (listed[k] ?? 0) + 1;
  }
  const beyond: Partial<Record<ConvKey, number>> = {};
  for (const c of a.conversations ?? []) {
    const k = convOfDto(c);
    if (!k) continue;
    const extra = Number(c.unreads) - (listed[k] ?? 0);
    if (extra > 0) beyond[k] = extra;
  }
  return { byId, beyond, readSince: s.readSince, receivedSince: s.receivedSince };
}

/** Unread counts per conversation and in total (the badges). */
export function unreadCounts(s: UnreadState): { byConv: Partial<Record<ConvKey, number>>; total: number } {
  const byConv: Partial<Record<ConvKey, number>> = { ...s.beyond };
  for (const m of Object.values(s.byId)) {
    const k = conversationOf(m);
    byConv[k] = (byConv[k] ?? 0) + 1;
  }
  let total = 0;
  for (const n of Object.values(byConv)) total += n ?? 0;
  return { byConv, total };
}

/** Ids of one conversation's listed unread messages. */
export function unreadIdsOf(s: UnreadState, key: ConvKey): string[] {
  return Object.values(s.byId)
    .filter((m) => conversationOf(m) === key)
    .map((m) => m.id);
}
