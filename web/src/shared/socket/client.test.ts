// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, SocketClient } from './client';
import { FakeWS } from '../test/fakeWebSocket';

beforeEach(() => {
  FakeWS.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

type Options = Partial<ConstructorParameters<typeof SocketClient>[0]>;

const client = (over: Options = {}) =>
  new SocketClient({ url: 'ws://x/ds/ws', token: () => 'tok', WebSocketImpl: FakeWS as unknown as typeof WebSocket, random: () => 0.5, ...over });

/** A client logged in on its first socket. */
async function online(over: Options = {}) {
  const c = client(over);
  const p = c.start();
  const ws = FakeWS.all[0]!;
  ws.open();
  ws.reply(0);
  await p;
  return { c, ws };
}

describe('socket client', () => {
  it('keeps the jittered backoff within its bounds and growing', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(20, () => 1)).toBe(30000);
    const samples = Array.from({ length: 200 }, () => backoffDelay(4));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(250);
    expect(Math.max(...samples)).toBeLessThanOrEqual(16000);
    expect(new Set(samples).size).toBeGreaterThan(50);
  });

  it('logs in with the token as a console and resolves', async () => {
    const c = client();
    const p = c.start();
    const ws = FakeWS.all[0]!;
    expect(ws.url).toBe('ws://x/ds/ws');
    ws.open();
    expect(ws.sent[0]).toMatchObject({ type: 'session.login', data: { token: 'tok', client: 'console' } });
    ws.reply(0, '0', { msId: '1' });
    await expect(p).resolves.toBeUndefined();
    expect(c.status).toBe('online');
  });

  it('rejects the login with the server code and stops on 105 or 6', async () => {
    const onRejected = vi.fn();
    const c = client({ onRejected });
    const p = c.start();
    FakeWS.all[0]!.open();
    FakeWS.all[0]!.reply(0, '6');
    await expect(p).rejects.toMatchObject({ code: '6' });
    expect(onRejected).toHaveBeenCalledWith('6');
  });

  it('stops on session.replaced and hands on where and when the other sign-in came from, without reconnecting', async () => {
    const onRejected = vi.fn();
    const { ws } = await online({ onRejected });
    ws.event('session.replaced', { msId: '10000001', ip: '192.0.2.7', time: 1795911361522 });
    expect(onRejected).toHaveBeenCalledWith('7', { msId: '10000001', ip: '192.0.2.7', time: 1795911361522 });
    ws.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeWS.all).toHaveLength(1);
  });

  it('times out a login that gets no answer within 15 s', async () => {
    const c = client();
    const p = c.start();
    FakeWS.all[0]!.open();
    vi.advanceTimersByTime(15_001);
    await expect(p).rejects.toMatchObject({ code: 'timeout' });
  });

  it('correlates replies, delivers events and tracks seq', async () => {
    const { c, ws } = await online();
    const seen: unknown[] = [];
    c.on('presence', (e) => seen.push(e.data));
    const r = c.request('group.switch', { gid: '12' });
    ws.reply(1, '4');
    await expect(r).rejects.toMatchObject({ code: '4' });
    ws.event('presence', { msId: '10000150', online: '1' });
    expect(seen).toEqual([{ msId: '10000150', online: '1' }]);
  });

  it('reconnects after a drop, logs in again, asks for missed events and resyncs', async () => {
    const onResync = vi.fn();
    const { c, ws: first } = await online({ onResync });
    let ws = first;
    ws.event('log.added', { id: 'a' }, 41);
    ws.close();
    expect(c.status).toBe('reconnecting');
    vi.advanceTimersByTime(1_000); // random 0.5 → 625 ms for the first retry
    ws = FakeWS.all[1]!;
    expect(ws).toBeDefined();
    ws.open();
    ws.reply(0);
    await vi.runOnlyPendingTimersAsync();
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(ws.sent.find((f) => f.type === 'sync')).toMatchObject({ data: { after: 41 } });
  });

  it('moves to the next node the login listed when its node dies, and syncs there', async () => {
    const c = client({ url: 'ws://a:8091/ds/ws' });
    const p = c.start();
    let ws = FakeWS.all[0]!;
    ws.open();
    ws.reply(0, '0', { msId: '10000001', lastSeq: 7, nodes: ['http://a:8091', 'http://b:8092', 'http://c:8093'] });
    await p;
    ws.close(); // node a dies
    vi.advanceTimersByTime(1_000);
    ws = FakeWS.all[1]!;
    expect(ws.url).toBe('ws://b:8092/ds/ws');
    ws.close(); // b refuses too (it is down as well): then c, after a longer wait
    vi.advanceTimersByTime(2_000);
    ws = FakeWS.all[2]!;
    expect(ws.url).toBe('ws://c:8093/ds/ws');
    ws.open();
    expect(ws.sent[0]).toMatchObject({ type: 'session.login', data: { token: 'tok', client: 'console' } });
    ws.reply(0, '0', { msId: '10000001', nodes: ['http://c:8093', 'http://a:8091'] });
    await vi.runOnlyPendingTimersAsync();
    expect(c.status).toBe('online');
    expect(ws.sent.find((f) => f.type === 'sync')).toMatchObject({ data: { after: 7 } });
    expect(c.nodes.all()).toEqual(['ws://c:8093/ds/ws', 'ws://a:8091/ds/ws']);
  });

  it('starts its sync mark at the login reply\'s lastSeq and pages sync while the server has more', async () => {
    const c = client();
    const p = c.start();
    let ws = FakeWS.all[0]!;
    ws.open();
    ws.reply(0, '0', { msId: '10000001', lastSeq: 500 }); // no event seen before the drop
    await p;
    ws.close();
    vi.advanceTimersByTime(1_000);
    ws = FakeWS.all[1]!;
    ws.open();
    ws.reply(0);
    for (let i = 0; i < 10; i++) await Promise.resolve(); // not timers: they would time the sync request out
    const first = ws.sent.findIndex((f) => f.type === 'sync');
    expect(ws.sent[first]).toMatchObject({ data: { after: 500 } });
    ws.reply(first, '0', { last: 700, more: true });
    for (let i = 0; i < 10; i++) await Promise.resolve(); // the next page is asked on the reply's microtask
    const syncs = ws.sent.filter((f) => f.type === 'sync');
    expect(syncs).toHaveLength(2);
    expect(syncs[1]).toMatchObject({ data: { after: 700 } });
    ws.reply(ws.sent.indexOf(syncs[1]!), '0', { last: 720, more: false });
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(ws.sent.filter((f) => f.type === 'sync')).toHaveLength(2);
  });

  it('replays from the drop\'s mark again when the sync after a reconnect failed, not from what that connection saw live', async () => {
    const { c, ws: first } = await online();
    /** Drops the socket; the client's next one (after its backoff) logs in and asks sync: that request's index. */
    const dropAndReturn = async (ws: FakeWS, backoffMs: number) => {
      ws.close();
      vi.advanceTimersByTime(backoffMs);
      const next = FakeWS.all[FakeWS.all.length - 1]!;
      next.open();
      next.reply(0);
      for (let i = 0; i < 10; i++) await Promise.resolve();
      return { ws: next, sync: next.sent.findIndex((f) => f.type === 'sync') };
    };
    first.event('sos.alarm', { id: '1' }, 40);
    let { ws, sync } = await dropAndReturn(first, 1_000); // dropped at 40
    expect(ws.sent[sync]).toMatchObject({ data: { after: 40 } });
    ws.event('sms.status', { id: '9' }, 58); // live, while 41…57 are still to be replayed
    ({ ws, sync } = await dropAndReturn(ws, 2_000)); // the sync never answered
    expect(ws.sent[sync]).toMatchObject({ data: { after: 40 } });
    ws.reply(sync, '0', { last: 58, more: false });
    for (let i = 0; i < 10; i++) await Promise.resolve();
    ({ ws, sync } = await dropAndReturn(ws, 1_000)); // a sync completed: the next drop's mark is the newest seen
    expect(ws.sent[sync]).toMatchObject({ data: { after: 58 } });
    expect(FakeWS.all).toHaveLength(4);
    c.stop();
  });

  it('answers requests while offline with "not online"', async () => {
    const c = client();
    await expect(c.request('sms.send', {})).rejects.toMatchObject({ code: '4' });
  });
});

describe('socket client first connection', () => {
  it('keeps retrying when the first connection fails, until stopped', async () => {
    const c = client();
    const p = c.start();
    FakeWS.all[0]!.close();
    await expect(p).rejects.toMatchObject({ code: '503' });
    expect(c.status).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(FakeWS.all).toHaveLength(2);
    c.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeWS.all).toHaveLength(2);
    expect(c.status).toBe('closed');
  });
});
