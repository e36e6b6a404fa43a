// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalSocket } from './socket';
import { FakeWS } from '../shared/test/fakeWebSocket';

beforeEach(() => {
  FakeWS.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeWS);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const login = { msId: '10000150', customerId: 1, kind: 'terminal', serverTime: 0, protocol: 1 };

describe('phone terminal socket', () => {
  it('moves to another node of the cluster with its resume token when its node dies', async () => {
    const s = new TerminalSocket({ url: 'ws://a:8091/ds/ws', uid: '10000165', auth: '123456' });
    const first = s.start();
    FakeWS.all[0]!.open();
    FakeWS.all[0]!.reply(0, '0', { ...login, msId: '10000165', resume: 'tok-a', nodes: ['http://a:8091', 'http://b:8092'] });
    await first;
    FakeWS.all[0]!.close(); // node a dies
    await vi.runOnlyPendingTimersAsync();
    const moved = FakeWS.all[1]!;
    expect(moved.url).toBe('ws://b:8092/ds/ws');
    moved.open();
    expect(moved.sent[0]!.data).toEqual({ client: 'terminal', uid: '10000165', resume: 'tok-a' });
    moved.reply(0, '0', { ...login, msId: '10000165', resume: 'tok-a', nodes: ['http://b:8092'] });
    await vi.runOnlyPendingTimersAsync();
    expect(s.status).toBe('online');
    // the only live node listed: the list stays as it was (a may come back), b in use
    expect(s.nodes.current()).toBe('ws://b:8092/ds/ws');
    expect(s.nodes.all()).toEqual(['ws://a:8091/ds/ws', 'ws://b:8092/ds/ws']);
  });

  it('reconnects with the resume token, and falls back to the password when it is refused', async () => {
    const rejected = vi.fn();
    const s = new TerminalSocket({ url: 'ws://x/ds/ws', uid: '10000150', auth: '123456', onRejected: rejected });
    const first = s.start();
    FakeWS.all[0]!.open();
    expect(FakeWS.all[0]!.sent[0]!.data).toEqual({ client: 'terminal', uid: '10000150', auth: '123456' });
    FakeWS.all[0]!.reply(0, '0', { ...login, resume: 'tok-1' });
    await first;

    // The network drops: the reconnect presents the token, not the password.
    FakeWS.all[0]!.close();
    await vi.runOnlyPendingTimersAsync();
    const again = FakeWS.all[1]!;
    again.open();
    expect(again.sent[0]!.data).toEqual({ client: 'terminal', uid: '10000150', resume: 'tok-1' });
    // The token was ended meanwhile: not a refusal of the account, the password is used at once.
    again.reply(0, '105');
    await vi.runOnlyPendingTimersAsync();
    expect(rejected).not.toHaveBeenCalled();
    const third = FakeWS.all[2]!;
    third.open();
    expect(third.sent[0]!.data).toEqual({ client: 'terminal', uid: '10000150', auth: '123456' });
    third.reply(0, '0', { ...login, resume: 'tok-2' });
    await vi.advanceTimersByTimeAsync(1);
    expect(s.status).toBe('online');

    // The next drop presents the newest token.
    third.close();
    await vi.runOnlyPendingTimersAsync();
    const fourth = FakeWS.all[3]!;
    fourth.open();
    expect(fourth.sent[0]!.data).toEqual({ client: 'terminal', uid: '10000150', resume: 'tok-2' });
    s.stop();
  });
});
