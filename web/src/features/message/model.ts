// The message of docs/messages.md §1 and the pure rules around it: which conversation a message belongs to, the
// conversation list, the spec §4 unread rule, and merging the console's own in-flight sends with the server's copy.

import type { FileInfo, Message } from '../../shared/messages/record';

export type { DeliveryState, FileInfo, FileKind, Message, MessageType } from '../../shared/messages/record';

/** The `sms.read` event (spec §4 unread list type n). */
export interface ReadEvent {
  ids: string[];
  by?: string;
  byName?: string;
  msId?: string;
  gid?: string;
  readAt?: number;
}

/** A conversation: a terminal's direct messages (`t:<msId>`) or a group's (`g:<gid>`). */
export type ConvKey = `t:${string}` | `g:${string}`;

export const terminalConv = (msId: string): ConvKey => `t:${msId}`;
export const groupConv = (gid: string): ConvKey => `g:${gid}`;

export function parseConv(key: ConvKey): { kind: 'terminal' | 'group'; id: string } {
  return { kind: key.startsWith('g:') ? 'group' : 'terminal', id: key.slice(2) };
}

export function senderOf(m: Pick<Message, 'sender' | 'from'>): string {
  return String(m.sender || m.from || '');
}

/** The conversation a message belongs to: its group, else the terminal that sent it or that it went to. */
export function conversationOf(m: Message): ConvKey {
  if (m.gid) return groupConv(String(m.gid));
  return terminalConv(m.incoming ? senderOf(m) : String(m.msId ?? ''));
}

/**
 * Spec §4 / docs/messages.md "Unread rule": an incoming message with status 0 is unread for a dispatcher when it
 * was sent to that dispatcher, to a group, or to the dispatch center (no msId).
 */
export function isUnreadFor(m: Message, me: string | undefined): boolean {
  if (!m.incoming || Number(m.status) !== 0) return false;
  if (m.gid) return true;
  return !m.msId || String(m.msId) === String(me ?? '');
}

export interface Conversation {
  key: ConvKey;
  kind: 'terminal' | 'group';
  id: string;
  /** The best name the messages carry (the directory's name wins when the page has it). */
  name: string;
  last?: Message;
  lastTime: number;
  unreads: number;
}

/** The name a message gives its conversation. */
function nameFrom(m: Message, kind: 'terminal' | 'group'): string {
  if (kind === 'group') return m.gName ?? '';
  return (m.incoming ? m.fromName : m.msName) ?? '';
}

/**
 * Groups messages into conversations, latest first. `unreads` counts per conversation (from the unread store) are
 * added, and conversations that only have unreads (older than the loaded messages) or that the dispatcher opened
 * (`extra`) are listed too.
 */
export function groupConversations(
  messages: Iterable<Message>,
  unreads: Partial<Record<ConvKey, number>> = {},
  extra: { key: ConvKey; name?: string; lastTime?: number }[] = [],
): Conversation[] {
  const out = new Map<ConvKey, Conversation>();
  const get = (key: ConvKey) => {
    let c = out.get(key);
    if (!c) {
      const { kind, id } = parseConv(key);
      c = { key, kind, id, name: '', lastTime: 0, unreads: 0 };
      out.set(key, c);
    }
    return c;
  };
  for (const m of messages) {
    const key = conversationOf(m);
    if (key === 't:') continue;
    const c = get(key);
    if (!c.last || m.time > c.lastTime || (m.time === c.lastTime && Number(m.id) > Number(c.last.id))) {
      c.last = m;
      c.lastTime = m.time;
    }
    if (!c.name) c.name = nameFrom(m, c.kind);
  }
  for (const [key, n] of Object.entries(unreads) as [ConvKey, number][]) if (n > 0) get(key).unreads = n;
  for (const e of extra) {
    const c = get(e.key);
    if (!c.name && e.name) c.name = e.name;
    if (!c.last && e.lastTime && e.lastTime > c.lastTime) c.lastTime = e.lastTime;
  }
  return [...out.values()].sort((a, b) => b.lastTime - a.lastTime || a.key.localeCompare(b.key));
}

/** Messages of one conversation within [start, end], oldest first. */
export function conversationMessages(messages: Iterable<Message>, key: ConvKey, start = -Infinity, end = Infinity): Message[] {
  const out: Message[] = [];
  for (const m of messages) if (conversationOf(m) === key && m.time >= start && m.time <= end) out.push(m);
  return out.sort((a, b) => a.time - b.time || Number(a.id) - Number(b.id));
}

/** A message is newer in `b` when `b` has moved its delivery or read state forward (events may arrive in any order). */
export function mergeMessage(a: Message | undefined, b: Message): Message {
  if (!a) return b;
  const delivered = Math.max(a.delivered ?? 0, b.delivered ?? 0);
  const status = (Math.max(Number(a.status) || 0, Number(b.status) || 0) as 0 | 1);
  const rank = { pending: 0, partial: 1, delivered: 2 } as const;
  const state = a.state && b.state ? (rank[a.state] >= rank[b.state] ? a.state : b.state) : (b.state ?? a.state);
  const defined = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Partial<Message>;
  return { ...a, ...defined, delivered, status, state, readBy: b.readBy || a.readBy, readAt: b.readAt || a.readAt, seenAt: a.seenAt ?? b.seenAt };
}

/** A send the console started: shown until the server's copy of the message arrives. */
export interface LocalSend {
  localId: string;
  conv: ConvKey;
  content: string;
  fileId?: string;
  file?: FileInfo;
  sentAt: number;
  /** The server's id once the reply came. */
  serverId?: string;
  /** The reply's code when it was not "0" ('no socket', 'timeout' and the server's codes). */
  code?: string;
  done: boolean;
}

/** Codes after which the server has stored the message and will deliver it later (docs/messages.md §2). */
export const STORED_CODES = new Set(['4', '408', '16']);

/** A row of the chat view: a server message (with the code its send got, if any) or a local send not stored. */
export type ChatRow = { kind: 'message'; message: Message; code?: string } | { kind: 'local'; local: LocalSend };

/**
 * Merges the conversation's server messages with the console's own sends. A local send is matched to the server
 * copy by its id, or — when the reply was an error and carried no id — by the same sender, conversation, text and
 * file within 15 s. Matched sends lend their error code to the message (e.g. "not online": kept for later);
 * unmatched ones are shown as sending, or as failed with their code.
 */
export function mergeLocal(messages: Message[], locals: LocalSend[], me: string): ChatRow[] {
  const claimed = new Map<string, LocalSend>();
  const unmatched: LocalSend[] = [];
  for (const l of locals) {
    let hit = l.serverId ? messages.find((m) => m.id === l.serverId) : undefined;
    if (!hit && !l.serverId) {
      hit = messages.find(
        (m) =>
          !m.incoming &&
          !claimed.has(m.id) &&
          senderOf(m) === me &&
          conversationOf(m) === l.conv &&
          m.content === l.content &&
          (m.file?.id ?? '') === (l.fileId ?? '') &&
          Math.abs((m.seenAt ?? m.time) - l.sentAt) < 15_000,
      );
    }
    if (hit) claimed.set(hit.id, l);
    else unmatched.push(l);
  }
  const rows: ChatRow[] = messages.map((m) => ({ kind: 'message', message: m, code: claimed.get(m.id)?.code }));
  for (const l of unmatched) {
    // A stored send whose server copy is not loaded (another range) is not shown twice as failed.
    if (l.done && l.code === undefined) continue;
    rows.push({ kind: 'local', local: l });
  }
  return rows;
}

/** What the chat shows for a dispatcher's message. */
export type ShownState = 'sending' | 'failed' | 'pending' | 'partial' | 'delivered';

export function shownState(row: ChatRow): ShownState | undefined {
  if (row.kind === 'local') return row.local.done ? 'failed' : 'sending';
  const m = row.message;
  if (m.incoming) return undefined;
  if (m.state === 'delivered') return 'delivered';
  if (m.state === 'partial') return 'partial';
  if (row.code === '16') return 'failed'; // refused: stored, offered again at the next login
  return 'pending';
}
