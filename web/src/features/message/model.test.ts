// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { conversationMessages, conversationOf, groupConversations, isUnreadFor, mergeLocal, mergeMessage, shownState, type LocalSend, type Message } from './model';

const ME = '10000001';
let seq = 0;
const msg = (p: Partial<Message>): Message => ({ id: String(++seq), sender: ME, incoming: false, content: 'hi', type: 'text', status: 1, time: 1_000 + seq, ...p });

describe('conversations', () => {
  it('puts a message in its group, else the terminal that sent it or that it went to', () => {
    expect(conversationOf(msg({ msId: '10000150' }))).toBe('t:10000150');
    expect(conversationOf(msg({ incoming: true, sender: '10000150', msId: ME }))).toBe('t:10000150');
    expect(conversationOf(msg({ incoming: true, sender: '10000150' }))).toBe('t:10000150');
    expect(conversationOf(msg({ gid: '12', msId: undefined }))).toBe('g:12');
    expect(conversationOf(msg({ incoming: true, sender: '10000150', gid: '12' }))).toBe('g:12');
    expect(conversationOf({ ...msg({ incoming: true }), sender: '', from: '10000152' })).toBe('t:10000152');
  });

  it('groups messages latest first with names, unread counts and conversations without loaded messages', () => {
    const list = [
      msg({ msId: '10000150', msName: 'App 150', time: 100 }),
      msg({ incoming: true, sender: '10000150', fromName: 'App 150', time: 300 }),
      msg({ gid: '12', gName: 'Patrol North', time: 200 }),
      msg({ incoming: true, sender: '10000151', fromName: 'App 151', gid: '12', gName: 'Patrol North', time: 250 }),
    ];
    const convs = groupConversations(list, { 'g:12': 1, 't:10000199': 2 }, [{ key: 't:10000160', name: 'Picked', lastTime: 0 }]);
    expect(convs.map((c) => c.key)).toEqual(['t:10000150', 'g:12', 't:10000160', 't:10000199']);
    expect(convs[0]).toMatchObject({ kind: 'terminal', id: '10000150', name: 'App 150', lastTime: 300, unreads: 0 });
    expect(convs[0]!.last!.incoming).toBe(true);
    expect(convs[1]).toMatchObject({ kind: 'group', id: '12', name: 'Patrol North', lastTime: 250, unreads: 1 });
    expect(convs[2]).toMatchObject({ name: 'Picked', unreads: 0 });
    expect(convs[3]).toMatchObject({ unreads: 2 });
    expect(convs[3]!.last).toBeUndefined();
  });

  it('lists one conversation oldest first within a range', () => {
    const a = msg({ msId: '10000150', time: 500 });
    const b = msg({ incoming: true, sender: '10000150', time: 400 });
    const other = msg({ msId: '10000151', time: 450 });
    expect(conversationMessages([a, b, other], 't:10000150').map((m) => m.id)).toEqual([b.id, a.id]);
    expect(conversationMessages([a, b, other], 't:10000150', 450, 600).map((m) => m.id)).toEqual([a.id]);
  });
});

describe('unread rule (spec §4)', () => {
  it('counts incoming status-0 messages to me, to a group or to the dispatch center', () => {
    expect(isUnreadFor(msg({ incoming: true, status: 0, sender: '10000150', msId: ME }), ME)).toBe(true);
    expect(isUnreadFor(msg({ incoming: true, status: 0, sender: '10000150' }), ME)).toBe(true);
    expect(isUnreadFor(msg({ incoming: true, status: 0, sender: '10000150', gid: '12' }), ME)).toBe(true);
    expect(isUnreadFor(msg({ incoming: true, status: 0, sender: '10000150', msId: '10000002' }), ME)).toBe(false);
    expect(isUnreadFor(msg({ incoming: true, status: 1, sender: '10000150' }), ME)).toBe(false);
    expect(isUnreadFor(msg({ incoming: false, status: 0 }), ME)).toBe(false);
  });
});

describe('merging', () => {
  it('never moves delivery or read state backwards', () => {
    const a = msg({ msId: '10000150', state: 'delivered', delivered: 1, recipients: 1 });
    expect(mergeMessage(a, { ...a, state: 'pending', delivered: 0 })).toMatchObject({ state: 'delivered', delivered: 1 });
    const r = msg({ incoming: true, status: 1, readBy: ME });
    expect(mergeMessage(r, { ...r, status: 0, readBy: '' })).toMatchObject({ status: 1, readBy: ME });
  });

  it('matches a local send to the server copy by id, or by text within 15 s when the reply had no id', () => {
    const stored = msg({ msId: '10000150', content: 'gate 4', time: 10_000, state: 'pending' });
    const byId: LocalSend = { localId: 'l1', conv: 't:10000150', content: 'gate 4', sentAt: 10_000, serverId: stored.id, done: true };
    expect(mergeLocal([stored], [byId], ME)).toEqual([{ kind: 'message', message: stored, code: undefined }]);

    const notOnline: LocalSend = { localId: 'l2', conv: 't:10000150', content: 'gate 4', sentAt: 9_000, code: '4', done: true };
    const rows = mergeLocal([stored], [notOnline], ME);
    expect(rows).toEqual([{ kind: 'message', message: stored, code: '4' }]);
    expect(shownState(rows[0]!)).toBe('pending');

    const invalid: LocalSend = { localId: 'l3', conv: 't:10000150', content: 'bad', sentAt: 9_000, code: '10', done: true };
    const sending: LocalSend = { localId: 'l4', conv: 't:10000150', content: 'later', sentAt: 9_500, done: false };
    const rows2 = mergeLocal([stored], [invalid, sending], ME);
    expect(rows2.map((r) => (r.kind === 'local' ? r.local.localId : r.message.id))).toEqual([stored.id, 'l3', 'l4']);
    expect(rows2.map(shownState)).toEqual(['pending', 'failed', 'sending']);

    const tooOld: LocalSend = { ...notOnline, localId: 'l5', sentAt: stored.time - 20_000 };
    expect(mergeLocal([stored], [tooOld], ME)[1]).toMatchObject({ kind: 'local' });
  });

  it('shows partial and delivered from the server, refused as failed', () => {
    const m = msg({ gid: '12', state: 'partial', delivered: 1, recipients: 3 });
    expect(shownState({ kind: 'message', message: m })).toBe('partial');
    expect(shownState({ kind: 'message', message: { ...m, state: 'delivered' } })).toBe('delivered');
    expect(shownState({ kind: 'message', message: { ...m, state: 'pending' }, code: '16' })).toBe('failed');
    expect(shownState({ kind: 'message', message: msg({ incoming: true }) })).toBeUndefined();
  });
});
