// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, http, installAuthHooks, setFetch } from './client';

type Answer = { code: string; msg?: string; result?: unknown };

function fakeFetch(answers: (token: string | undefined, url: string) => Answer) {
  const calls: { url: string; token?: string }[] = [];
  const f = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const token = (init?.headers as Record<string, string> | undefined)?.token;
    calls.push({ url: String(url), token });
    return new Response(JSON.stringify(answers(token, String(url))), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  setFetch(f as unknown as typeof fetch);
  return calls;
}

function hooks(reauth: () => Promise<string>) {
  let token = 'old';
  const expired = vi.fn();
  const reauthenticate = vi.fn(async () => (token = await reauth()));
  installAuthHooks({ token: () => token, reauthenticate, expired });
  return { expired, reauthenticate };
}

afterEach(() => vi.restoreAllMocks());

describe('http client and the "105" rule (spec §8 "Token expiry")', () => {
  it('unwraps the {code,msg,result} envelope', async () => {
    hooks(async () => 'new');
    fakeFetch(() => ({ code: '0', result: { a: 1 } }));
    await expect(http.get('/ds/x')).resolves.toEqual({ a: 1 });
  });

  it('rejects non-zero codes with an ApiError carrying code and msg', async () => {
    hooks(async () => 'new');
    fakeFetch(() => ({ code: '21', msg: 'name exists' }));
    await expect(http.get('/ds/x')).rejects.toMatchObject({ code: '21', serverMsg: 'name exists' });
  });

  it('re-authenticates on 105 and retries once with the new token', async () => {
    const h = hooks(async () => 'new');
    const calls = fakeFetch((token) => (token === 'new' ? { code: '0', result: 'ok' } : { code: '105' }));
    await expect(http.get('/ds/data/x')).resolves.toBe('ok');
    expect(calls.map((c) => c.token)).toEqual(['old', 'new']);
    expect(h.reauthenticate).toHaveBeenCalledTimes(1);
    expect(h.expired).not.toHaveBeenCalled();
  });

  it('gives up after one retry: ds token timeout and back to login', async () => {
    const h = hooks(async () => 'new');
    const calls = fakeFetch(() => ({ code: '105' }));
    const err = await http.get('/ds/data/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: '105', serverMsg: 'ds token timeout' });
    expect(calls).toHaveLength(2);
    expect(h.expired).toHaveBeenCalledTimes(1);
  });

  it('goes back to login when re-authentication fails', async () => {
    const h = hooks(async () => {
      throw new ApiError('2');
    });
    const calls = fakeFetch(() => ({ code: '105' }));
    await expect(http.get('/ds/data/x')).rejects.toMatchObject({ code: '105' });
    expect(calls).toHaveLength(1);
    expect(h.expired).toHaveBeenCalledTimes(1);
  });

  it('shares one re-authentication between parallel calls', async () => {
    const h = hooks(async () => 'new');
    fakeFetch((token) => (token === 'new' ? { code: '0', result: 1 } : { code: '105' }));
    await expect(Promise.all([http.get('/ds/a'), http.get('/ds/b'), http.get('/ds/c')])).resolves.toEqual([1, 1, 1]);
    expect(h.reauthenticate).toHaveBeenCalledTimes(1);
  });

  it('never re-authenticates public and sign-in calls', async () => {
    const h = hooks(async () => 'new');
    const calls = fakeFetch(() => ({ code: '105' }));
    await expect(http.get('/ds/pub/theme', undefined, { anonymous: true })).rejects.toMatchObject({ code: '105' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.token).toBeUndefined();
    expect(h.reauthenticate).not.toHaveBeenCalled();
  });

  it('reports transport failures as such', async () => {
    hooks(async () => 'new');
    setFetch((async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch);
    await expect(http.get('/ds/x')).rejects.toMatchObject({ code: 'network', transport: true });
  });
});
