// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Message } from './model';
import { applyRead, applyReceived, applySnapshot, beginSnapshot, emptyUnread, unreadCounts, unreadIdsOf } from './unread';

const ME = '10000001';
const incoming = (id: string, p: Partial<Message> = {}): Message => ({ id, sender: '10000150', incoming: true, content: 'x', type: 'text', status: 0, time: Number(id), ...p });

describe('unread list: type b adds, type n removes (spec §4)', () => {
  it('adds a received message once, only when it is unread for me', () => {
    let s = emptyUnread();
    s = applyReceived(s, incoming('1'), ME);
    s = applyReceived(s, incoming('1'), ME); // a repeat (sync replay)
    s = applyReceived(s, incoming('2', { gid: '12' }), ME);
    s = applyReceived(s, incoming('3', { msId: '10000002' }), ME); // to another dispatcher
    s = applyReceived(s, incoming('4', { status: 1 }), ME);
    expect(unreadCounts(s)).toEqual({ byConv: { 't:10000150': 1, 'g:12': 1 }, total: 2 });
  });

  it('removes read ids, also ones counted beyond the listed 1,000', () => {
    let s = applySnapshot(
      emptyUnread(),
      {
        total: 5,
        list: [incoming('1'), incoming('2', { gid: '12' })],
        conversations: [
          { type: '1', msId: '10000150', unreads: 4 },
          { type: '2', gid: '12', unreads: 1 },
        ],
      },
      ME,
    );
    expect(unreadCounts(s).total).toBe(5);
    expect(unreadCounts(s).byConv['t:10000150']).toBe(4);
    s = applyRead(s, { ids: ['1', '90', '91'], msId: '10000150' });
    expect(unreadCounts(s).byConv).toEqual({ 't:10000150': 1, 'g:12': 1 });
    s = applyRead(s, { ids: ['2'] });
    expect(unreadCounts(s).total).toBe(1);
    expect(unreadIdsOf(s, 'g:12')).toEqual([]);
  });

  it('does not bring back a message read while the snapshot was on its way, and keeps one that arrived meanwhile', () => {
    let s = applyReceived(emptyUnread(), incoming('1'), ME);
    s = beginSnapshot(s);
    s = applyRead(s, { ids: ['1'] });
    s = applyReceived(s, incoming('7'), ME);
    s = applySnapshot(s, { total: 1, list: [incoming('1')], conversations: [{ type: '1', msId: '10000150', unreads: 1 }] }, ME);
    expect(Object.keys(s.byId)).toEqual(['7']);
    expect(unreadCounts(s).total).toBe(1);
  });

  it('a read message that is received again (replayed) stays read', () => {
    let s = applyReceived(emptyUnread(), incoming('1'), ME);
    s = applyRead(s, { ids: ['1'] });
    s = applyReceived(s, incoming('1'), ME);
    expect(unreadCounts(s).total).toBe(0);
  });
});
