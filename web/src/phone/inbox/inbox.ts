// The inbox: the dispatch center's messages (sms.deliver) and this app's replies, newest first, at most 200, kept
// on this device per account.
import { create } from 'zustand';
import { local, readJSON, writeJSON } from '../../shared/utils/storage';
import { phoneSocket, useSession } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

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

export const MAX_INBOX = 200;
const inboxKey = (uid: string) => `tenfour.app.inbox.${uid}`;

export const useInbox = create<{ messages: InboxMessage[] }>(() => ({ messages: [] }));

export const unreadCount = (messages: InboxMessage[]) => messages.filter((m) => !m.read && !m.mine).length;

function put(uid: string, messages: InboxMessage[]) {
  writeJSON(local(), inboxKey(uid), messages);
  useInbox.setState({ messages });
}

/** The inbox kept for this account (at sign-in). */
export function loadInbox(uid: string): void {
  useInbox.setState({ messages: readJSON<InboxMessage[]>(local(), inboxKey(uid)) ?? [] });
}

export function resetInbox(): void {
  useInbox.setState({ messages: [] });
}

/** A delivered message: added unread, unless it is a repeat (the server delivers again until acknowledged). */
export function receive(uid: string, m: InboxMessage): boolean {
  const id = String(m.id);
  const { messages } = useInbox.getState();
  if (messages.some((x) => x.id === id && !x.mine)) return false;
  put(uid, [{ ...m, id, read: false }, ...messages].slice(0, MAX_INBOX));
  return true;
}

export function markRead(): void {
  const uid = useSession.getState().uid;
  const { messages } = useInbox.getState();
  if (!uid || !messages.some((m) => !m.read)) return;
  put(
    uid,
    messages.map((m) => (m.read ? m : { ...m, read: true })),
  );
}

/** A message to the dispatch center (every dispatcher). */
export async function sendMessage(content: string): Promise<boolean> {
  const sock = phoneSocket();
  if (!sock || !content.trim()) return false;
  try {
    const r = await sock.request<{ id: string; time: number }>('sms.send', { content });
    const uid = useSession.getState().uid ?? '';
    const mine: InboxMessage = { id: `out-${r.id}`, from: uid, fromName: '', content, type: 'text', time: r.time || Date.now(), mine: true, read: true };
    put(uid, [mine, ...useInbox.getState().messages].slice(0, MAX_INBOX));
    return true;
  } catch (e) {
    notify('errors.send', { code: codeOf(e) });
    return false;
  }
}

/** The server's sms.deliver: acknowledged every time, shown once. */
export function attachInbox(s: TerminalSocket): void {
  s.handle('sms.deliver', (d) => {
    const m = d as unknown as InboxMessage;
    if (receive(useSession.getState().uid ?? '', m)) notify('messages.new', { name: m.fromName || m.from });
    navigator.vibrate?.(200);
  });
}
