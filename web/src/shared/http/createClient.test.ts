// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createClient, joinPath, type ClientConfig } from './createClient';

interface Seen {
  url: string;
  method?: string;
  token?: string;
  body?: string;
}

/** A client on a fake service: `answer` gives each call's HTTP status and body (a string is sent as is). */
function serve(cfg: ClientConfig, answer: (s: Seen) => [number, unknown]) {
  const seen: Seen[] = [];
  const c = createClient(cfg);
  c.setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const s = { url: String(url), method: init?.method, token: (init?.headers as Record<string, string>).token, body: init?.body as string | undefined };
    seen.push(s);
    const [status, body] = answer(s);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as typeof fetch);
  return { c, seen };
}

describe('createClient: one client, configured per service', () => {
  it('joins the base, but takes a full path of the same service as is', () => {
    expect(joinPath('', '/ds/x')).toBe('/ds/x');
    expect(joinPath('/patrolService/', 'tbPatrolArea/list')).toBe('/patrolService/tbPatrolArea/list');
    expect(joinPath('/broadcast/v1', '/org')).toBe('/broadcast/v1/org');
    expect(joinPath('/broadcast/v1', '/broadcast/api/v1/org')).toBe('/broadcast/api/v1/org');
  });

  it("takes only the configured success code as success, and rejects any other with the server's code and key", async () => {
    const { c } = serve({ base: '/svc', okCode: '200' }, (s) => (s.url.endsWith('/ok') ? [200, { code: 200, result: 7 }] : [409, { code: 0, msg: 'm', key: 'svc.errors.x' }]));
    await expect(c.get('/ok')).resolves.toBe(7);
    const e = await c.get('/no').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: '0', serverMsg: 'm', key: 'svc.errors.x', transport: false });
  });

  it('puts GET/DELETE params in the query and sends other methods a JSON body', async () => {
    const { c, seen } = serve({ base: '/svc', okCode: '0' }, () => [200, { code: '0' }]);
    await c.get('/a', { x: 1, skip: undefined, none: null });
    await c.patch('/b', { v: 2 });
    await c.request('POST', '/c', { p: 3 });
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['GET', '/svc/a?x=1', undefined],
      ['PATCH', '/svc/b', '{"v":2}'],
      ['POST', '/svc/c', '{"p":3}'],
    ]);
  });

  it('signs in again once on the configured code, shared by parallel calls, and retries with the new token', async () => {
    let valid = 'new';
    const renew = vi.fn(async (stale: string | undefined) => {
      expect(stale).toBe('old');
      return valid;
    });
    const { c, seen } = serve({ base: '', okCode: '0', auth: () => 'old', reauth: { code: '9', renew } }, (s) => [200, s.token === valid ? { code: '0', result: s.url } : { code: '9' }]);
    await expect(Promise.all([c.get('/a'), c.get('/b')])).resolves.toEqual(['/a', '/b']);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(seen.map((s) => s.token)).toEqual(['old', 'old', 'new', 'new']);
    // refused again after the retry: the configured give-up error, without a third attempt
    valid = 'never';
    seen.length = 0;
    const giveUp = vi.fn(() => new ApiError('gone'));
    const g = serve({ base: '', okCode: '0', auth: () => 'old', reauth: { code: '9', renew: async () => 'new', giveUp } }, () => [200, { code: '9' }]);
    await expect(g.c.get('/a')).rejects.toMatchObject({ code: 'gone' });
    expect(g.seen).toHaveLength(2);
    expect(giveUp).toHaveBeenCalledTimes(1);
  });

  it("without giveUp, a failed renewal rejects with the renewal's own error", async () => {
    const { c, seen } = serve({ base: '', okCode: '0', auth: async () => undefined, reauth: { code: '9', renew: () => Promise.reject(new ApiError('2')) } }, () => [200, { code: '9' }]);
    await expect(c.get('/a')).rejects.toMatchObject({ code: '2' });
    expect(seen).toHaveLength(1);
  });

  it('never re-authenticates an anonymous call or one with a token of its own', async () => {
    const renew = vi.fn(async () => 'new');
    const { c, seen } = serve({ base: '', okCode: '0', auth: () => 'mine', reauth: { code: '9', renew } }, () => [200, { code: '9' }]);
    await expect(c.post('/login', {}, { anonymous: true })).rejects.toMatchObject({ code: '9' });
    await expect(c.post('/login', {}, { token: 'console' })).rejects.toMatchObject({ code: '9' });
    expect(seen.map((s) => s.token)).toEqual([undefined, 'console']);
    expect(renew).not.toHaveBeenCalled();
  });

  it('reads a non-envelope answer and a transport failure as configured', async () => {
    const ds = serve({ base: '', okCode: '0' }, () => [502, '<html>']);
    await expect(ds.c.get('/a')).rejects.toMatchObject({ code: 'network', transport: true });
    const svc = serve({ base: '', okCode: '200', noEnvelope: '500' }, () => [502, '<html>']);
    await expect(svc.c.get('/a')).rejects.toMatchObject({ code: '500', transport: false, serverMsg: 'HTTP 502' });
    const down = createClient({ base: '', okCode: '200', transportCode: '500' });
    down.setFetch((async () => Promise.reject(new TypeError('offline'))) as typeof fetch);
    await expect(down.get('/a')).rejects.toMatchObject({ code: '500', transport: true });
  });

  it('gives up after the timeout as "timeout"', async () => {
    const c = createClient({ base: '', okCode: '0', timeoutMs: 5 });
    c.setFetch(((_u: RequestInfo | URL, init?: RequestInit) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as typeof fetch);
    await expect(c.get('/slow')).rejects.toMatchObject({ code: 'timeout', transport: true });
  });

  it('unwraps an envelope read elsewhere (an upload) by the same rules', () => {
    const c = createClient({ base: '', okCode: '200', noEnvelope: '500' });
    expect(c.unwrap({ code: 200, result: 'r' }, 200)).toBe('r');
    expect(() => c.unwrap({ code: 1008, key: 'k' }, 400)).toThrow(expect.objectContaining({ code: '1008', key: 'k' }));
    expect(() => c.unwrap(undefined, 502)).toThrow(expect.objectContaining({ code: '500' }));
  });
});
