// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../shared/messages/record';
import { directionOf, fetchAll, messageRows, type MessageDataAnswer, type MessageDataQuery } from './api';

const m = (id: number, p: Partial<Message> = {}): Message => ({ id: String(id), sender: '10000001', fromName: 'Dispatcher', incoming: false, content: `c${id}`, type: 'text', status: 1, time: id, ...p });

describe('message-data export', () => {
  it('reads every page of the range', async () => {
    const all = Array.from({ length: 2350 }, (_, i) => m(i));
    const find = vi.fn(async (q: MessageDataQuery): Promise<MessageDataAnswer> => ({
      total: all.length,
      list: all.slice((q.pageNo - 1) * q.pageSize, q.pageNo * q.pageSize),
      summary: [{ msId: '10000150', sent: 1, received: 2, delivered: 2 }],
    }));
    const got = await fetchAll({ sTime: 0, eTime: 1 }, find);
    expect(find).toHaveBeenCalledTimes(3);
    expect(got.list).toHaveLength(2350);
    expect(got.summary).toHaveLength(1);
  });

  it('writes who, where, what and the delivery or read state', () => {
    const texts = { dispatchCenter: 'Dispatch center', kinds: { text: 'Text', image: 'Photo' }, states: { delivered: 'Delivered', pending: 'Pending' }, read: 'Read', unread: 'Unread', format: (t: number) => `T${t}` };
    const rows = messageRows(
      [
        m(1, { msId: '10000150', msName: 'App 150', state: 'delivered', delivered: 1, recipients: 1 }),
        m(2, { incoming: true, sender: '10000150', fromName: 'App 150', status: 0, type: 'image', file: { id: 'f', kind: 'image', name: 'a.jpg', mime: 'image/jpeg', size: 1, url: '/x' } }),
        m(3, { gid: '12', gName: 'Patrol North' }),
      ],
      texts,
    );
    expect(rows[0]).toEqual({ time: 'T1', from: 'Dispatcher (10000001)', to: 'App 150 (10000150)', type: 'Text', content: 'c1', file: '', delivery: 'Delivered 1/1' });
    expect(rows[1]).toMatchObject({ from: 'App 150 (10000150)', to: 'Dispatch center', type: 'Photo', file: 'a.jpg', delivery: 'Unread' });
    expect(rows[2]).toMatchObject({ to: 'Patrol North (12)', delivery: 'Pending 0/0' });
    expect(directionOf(m(4, { sender: '', from: '10000151', fromName: undefined }))).toEqual({ from: '10000151', to: '' });
  });
});
