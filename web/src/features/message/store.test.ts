// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from './model';

// A fake live socket: listeners by event type, and a status store like the real one.
const listeners = new Map<string, Set<(e: { data: unknown }) => void>>();
vi.mock('../../shared/socket/live', async () => {
  const { create } = await import('zustand');
  const useLiveStatus = create<{ status: string }>(() => ({ status: 'online' }));
  return {
    useLiveStatus,
    onResync: () => () => {},
    live: () => ({
      status: 'online',
      on: (type: string, fn: (e: { data: unknown }) => void) => {
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type)!.add(fn);
        return () => listeners.get(type)!.delete(fn);
      },
    }),
  };
});
const unreadAnswer = { total: 1, list: [] as Message[], conversations: [] as unknown[] };
vi.mock('./api', () => ({
  messageApi: {
    unread: vi.fn(async () => unreadAnswer),
    markRead: vi.fn(async (sel: { msId?: string }) => ({ updated: 1, ids: sel.msId ? ['1'] : [] })),
  },
}));

const { retainMessageSync, useMessages, markConversationRead } = await import('./store');
const { unreadCounts } = await import('./unread');
const { useSession } = await import('../../shared/session');

const emit = (type: string, data: unknown) => listeners.get(type)?.forEach((fn) => fn({ data }));
const total = () => unreadCounts(useMessages.getState().unread).total;
const incoming = (id: string, p: Partial<Message> = {}): Message => ({ id, sender: '10000150', incoming: true, content: 'x', type: 'text', status: 0, time: Number(id), ...p });

beforeEach(() => {
  useSession.setState({ session: { userInfo: { msId: '10000001' } } as never });
  unreadAnswer.list = [incoming('1')];
  unreadAnswer.conversations = [{ type: '1', msId: '10000150', unreads: 1 }];
});

describe('message store: badge from the unread list and the live events', () => {
  it('loads the list, adds on sms.received (b), removes on sms.read (n), subscribes once', async () => {
    const release1 = retainMessageSync();
    const release2 = retainMessageSync();
    expect(listeners.get('sms.received')?.size).toBe(1);
    await vi.waitFor(() => expect(useMessages.getState().unreadLoaded).toBe(true));
    expect(total()).toBe(1);

    emit('sms.received', incoming('2', { gid: '12' }));
    emit('sms.received', incoming('2', { gid: '12' })); // the sync replay of the same event
    expect(total()).toBe(2);
    expect(unreadCounts(useMessages.getState().unread).byConv).toEqual({ 't:10000150': 1, 'g:12': 1 });

    emit('sms.read', { ids: ['2'], gid: '12', by: '10000002' });
    expect(total()).toBe(1);
    expect(useMessages.getState().messages['2']?.status).toBe(1);

    await markConversationRead('t:10000150');
    expect(total()).toBe(0);

    emit('sms.status', { ...incoming('3'), incoming: false, msId: '10000150', state: 'delivered', delivered: 1, recipients: 1 });
    expect(useMessages.getState().messages['3']?.state).toBe('delivered');
    expect(total()).toBe(0);

    release1();
    expect(listeners.get('sms.received')?.size).toBe(1);
    release2();
    release2(); // a second release does nothing
    expect(listeners.get('sms.received')?.size).toBe(0);
  });

  it('starts over when another dispatcher signs in', async () => {
    const release = retainMessageSync();
    await vi.waitFor(() => expect(useMessages.getState().unreadLoaded).toBe(true));
    useSession.setState({ session: { userInfo: { msId: '10000002' } } as never });
    emit('sms.received', incoming('9', { msId: '10000001' })); // addressed to the first dispatcher
    expect(useMessages.getState().owner).toBe('10000002');
    expect(total()).toBe(0);
    release();
  });
});
