import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { useSession, type Session } from '../../shared/session';
import { broadcastApi, call, clock, forgetBroadcastToken, positionAt, SECRET, taskTrace, zoneName } from './api';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fetch that signs in to the broadcast service (token bc-1, bc-2, …) and answers every other call with body. */
function answer(status: number, body: unknown) {
  let logins = 0;
  return vi.fn(async (url: string) => (url === '/broadcast/v1/login' ? json(200, { code: 200, result: { token: `bc-${++logins}` } }) : json(status, body)));
}

/** The calls a fetch mock got, other than the sign-in. */
const calls = (f: ReturnType<typeof answer>) =>
  (f.mock.calls as unknown as [string, RequestInit][]).filter(([url]) => url !== '/broadcast/v1/login');

afterEach(() => {
  vi.unstubAllGlobals();
  forgetBroadcastToken();
});

describe('broadcast api', () => {
  it('takes code 200 as success and returns the result', async () => {
    const f = answer(200, { code: 200, msg: 'ok', result: { total: 1, list: [{ id: 1 }] } });
    vi.stubGlobal('fetch', f);
    await expect(broadcastApi.orgs()).resolves.toEqual({ total: 1, list: [{ id: 1 }] });
    const [url, init] = calls(f)[0];
    expect(url).toBe('/broadcast/v1/org?page=1&limit=1000');
    expect(init.method).toBe('GET');
  });

  it("signs in with '{secret}' and the console session, sends the broadcast token, and signs in again once on 401", async () => {
    useSession.setState({ session: { token: 'console-1', account: '10000001', userInfo: { msId: '10000001' } } as unknown as Session });
    let answers = [json(200, { code: 200, result: { total: 0, list: [] } })];
    const f = answer(200, {});
    f.mockImplementation(async (url: string) =>
      url === '/broadcast/v1/login' ? json(200, { code: 200, result: { token: `bc-${f.mock.calls.length}` } }) : (answers.shift() ?? json(500, {})),
    );
    vi.stubGlobal('fetch', f);
    await broadcastApi.tasks();
    const [loginUrl, login] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(loginUrl).toBe('/broadcast/v1/login');
    expect((login.headers as Record<string, string>).token).toBe('console-1');
    expect(JSON.parse(login.body as string)).toEqual({ username: '10000001', password: SECRET });
    expect((calls(f)[0][1].headers as Record<string, string>).token).toBe('bc-1');
    // the token is kept; an expired one (401) is replaced once
    answers = [json(401, { code: 401, msg: 'expired' }), json(200, { code: 200, result: { total: 0, list: [] } })];
    await broadcastApi.tasks();
    const tokens = calls(f).map(([, init]) => (init.headers as Record<string, string>).token);
    expect(tokens).toEqual(['bc-1', 'bc-1', 'bc-4']);
    answers = [json(401, { code: 401 }), json(401, { code: 401 })];
    expect(((await broadcastApi.tasks().catch((x: unknown) => x)) as ApiError).code).toBe('401');
    useSession.setState({ session: undefined });
  });

  it('rejects with the server code (spec §8), or 500 when there is none', async () => {
    vi.stubGlobal('fetch', answer(409, { code: 1004, msg: 'the organisation still has devices', key: 'broadcast.errors.orgHasDevices' }));
    const e = await broadcastApi.deleteOrg(3).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('1004');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>', { status: 502 })));
    expect(((await call('GET', '/task').catch((x: unknown) => x)) as ApiError).code).toBe('500');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(((await call('GET', '/task').catch((x: unknown) => x)) as ApiError).code).toBe('500');
  });

  it('creates a root organisation under the /api prefix and a child under /v1 (spec §7)', async () => {
    const f = answer(200, { code: 200, result: { id: 9 } });
    vi.stubGlobal('fetch', f);
    await broadcastApi.createOrg({ parent_id: 0, name: 'A', code: 'a', call_number: '1' });
    await broadcastApi.createOrg({ parent_id: 9, name: 'B', code: 'b', call_number: '2' });
    const urls = calls(f).map(([url]) => url);
    expect(urls).toEqual(['/broadcast/api/v1/org', '/broadcast/v1/org']);
    const body = JSON.parse((calls(f)[1][1].body as string) ?? '{}') as { parent_id: number };
    expect(body.parent_id).toBe(9);
  });

  it('shows lengths as m:ss', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(61_999)).toBe('1:01');
    expect(clock(-5)).toBe('0:00');
  });
});

describe('zoneName', () => {
  it("names the customer's zone as UTC±hh:mm, the one timed tasks start in", () => {
    expect(zoneName(0)).toBe('UTC');
    expect(zoneName(3 * 3_600_000)).toBe('UTC+03:00');
    expect(zoneName(-(5 * 3_600_000 + 30 * 60_000))).toBe('UTC−05:30');
    expect(zoneName(5.75 * 3_600_000)).toBe('UTC+05:45');
  });
});

describe('taskTrace', () => {
  const task = (fix: object) => ({ state: 0, started_at: 0, missed_count: 0, ...fix }) as Parameters<typeof taskTrace>[0];
  const at = (ms: number) => `t${ms}`;
  it('says a task never ran, or when it last did and how it ended', () => {
    expect(taskTrace(task({}), at)).toEqual({ lastRun: undefined, missed: undefined });
    expect(taskTrace(task({ started_at: 5, ended_at: 9, end_reason: 'finished' }), at).lastRun).toEqual({ at: 't5', end: 'finished' });
    expect(taskTrace(task({ started_at: 5, ended_at: 7, end_reason: 'stopped' }), at).lastRun).toEqual({ at: 't5', end: 'stopped' });
    expect(taskTrace(task({ state: 1, started_at: 5 }), at).lastRun).toEqual({ at: 't5', end: 'playing' });
  });
  it('counts the missed starts with the last of them', () => {
    expect(taskTrace(task({ missed_count: 2, missed_at: 8 }), at).missed).toEqual({ count: 2, last: 't8' });
    expect(taskTrace(task({ missed_count: 1 }), at).missed).toEqual({ count: 1, last: undefined });
  });

  it('moves a playing task\'s position on from its read, up to the file\'s length; a paused one stays', () => {
    expect(positionAt({ state: 1, position_ms: 2000 }, 10_000, 13_500)).toBe(5500);
    expect(positionAt({ state: 1, position_ms: 2000 }, 10_000, 30_000, 8000)).toBe(8000);
    expect(positionAt({ state: 2, position_ms: 2000 }, 10_000, 13_500)).toBe(2000);
    expect(positionAt({ state: 1, position_ms: 2000 }, 10_000, 9000)).toBe(2000);
  });
});
