import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../session/store';
import { answer, endSession, LOGIN, sent, serverRequest, signedIn, fakeSockets } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { attachInbox, loadInbox, markRead, MAX_INBOX, receive, resetInbox, sendMessage, unreadCount, useInbox, type InboxMessage } from './inbox';

const UID = LOGIN.msId;
const msg = (id: number, content = `message ${id}`): InboxMessage => ({ id: String(id), from: '10000001', fromName: 'Dispatch', content, type: 'text', time: 1_700_000_000_000 + id });

beforeEach(() => {
  localStorage.clear();
  fakeSockets();
  resetInbox();
  useNotice.setState({ notice: undefined });
  useSession.setState({ phase: 'ready', uid: UID, link: undefined });
});
afterEach(endSession);

describe('phone inbox', () => {
  it('a delivered message is acknowledged every time, shown once with a notice, and kept for this account', async () => {
    const { ws } = await signedIn(attachInbox);
    const first = await serverRequest(ws, 'sms.deliver', { ...msg(7, 'Report to gate 4'), id: 7 });
    expect(first.code).toBe('0');
    expect(useNotice.getState().notice).toMatchObject({ key: 'messages.new', vars: { name: 'Dispatch' } });
    useNotice.setState({ notice: undefined });
    const repeat = await serverRequest(ws, 'sms.deliver', { ...msg(7, 'Report to gate 4'), id: 7 });
    expect(repeat.code).toBe('0');
    expect(useNotice.getState().notice).toBeUndefined();
    const { messages } = useInbox.getState();
    expect(messages.map((m) => [m.id, m.content, m.read])).toEqual([['7', 'Report to gate 4', false]]);
    expect(unreadCount(messages)).toBe(1);

    resetInbox();
    loadInbox(UID);
    expect(useInbox.getState().messages.map((m) => m.id)).toEqual(['7']);
    loadInbox('10000157');
    expect(useInbox.getState().messages).toEqual([]);
  });

  it('opening the inbox reads everything, on this device too', () => {
    receive(UID, msg(1));
    receive(UID, msg(2));
    expect(unreadCount(useInbox.getState().messages)).toBe(2);
    markRead();
    expect(unreadCount(useInbox.getState().messages)).toBe(0);
    loadInbox(UID);
    expect(useInbox.getState().messages.every((m) => m.read)).toBe(true);
  });

  it('keeps the newest 200', () => {
    for (let i = 1; i <= MAX_INBOX + 5; i++) receive(UID, msg(i));
    const { messages } = useInbox.getState();
    expect(messages).toHaveLength(MAX_INBOX);
    expect(messages[0]!.id).toBe(String(MAX_INBOX + 5));
    expect(messages[MAX_INBOX - 1]!.id).toBe('6');
  });

  it('a reply to the dispatch center is listed as mine once the server took it; a refusal says why', async () => {
    const { ws } = await signedIn(attachInbox);
    expect(await sendMessage('   ')).toBe(false);
    expect(sent(ws, 'sms.send')).toHaveLength(0);

    const ok = sendMessage('On my way');
    answer(ws, 'sms.send', '0', { id: 12, time: 1_700_000_000_500 });
    expect(await ok).toBe(true);
    expect(sent(ws, 'sms.send')[0]!.data).toEqual({ content: 'On my way' });
    const [mine] = useInbox.getState().messages;
    expect(mine).toMatchObject({ id: 'out-12', from: UID, content: 'On my way', mine: true, read: true, time: 1_700_000_000_500 });
    receive(UID, { ...msg(12), id: '12' }); // a delivered message with the same number is another message
    expect(useInbox.getState().messages).toHaveLength(2);
    expect(unreadCount(useInbox.getState().messages)).toBe(1);

    const refused = sendMessage('Again');
    answer(ws, 'sms.send', '403');
    expect(await refused).toBe(false);
    expect(useNotice.getState().notice).toMatchObject({ key: 'errors.send', vars: { code: '403' } });
    expect(useInbox.getState().messages).toHaveLength(2);
  });
});
