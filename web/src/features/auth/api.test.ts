// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installAuthHooks, setFetch } from '../../shared/http/client';
import { authApi } from './api';

interface Call {
  url: string;
  method?: string;
  body?: string;
  token?: string;
}

function capture(): Call[] {
  const calls: Call[] = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), method: init?.method, body: init?.body as string | undefined, token: (init?.headers as Record<string, string>).token });
    return new Response(JSON.stringify({ code: '0', result: { token: 't' } }), { status: 200 });
  }) as typeof fetch);
  return calls;
}

afterEach(() => vi.restoreAllMocks());

describe('credentials and tokens stay out of URLs (issue 14 L2, docs/adr/0009)', () => {
  it('signs in with the password in the body, not the URL', async () => {
    const calls = capture();
    await authApi.auth('10000001', 'secret-pw');
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url).toBe('/ds/user');
    expect(calls[0]!.url).not.toContain('secret-pw');
    expect(JSON.parse(calls[0]!.body!)).toEqual({ uid: '10000001', auth: 'secret-pw' });
  });

  it('binds an e-mail with the password in the body', async () => {
    const calls = capture();
    await authApi.bindEmail({ uid: '1', auth: 'secret-pw', email: 'a@b.c', verifyCode: '1234' });
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url).not.toContain('secret-pw');
  });

  it('signs out with the token header (a cookie-only sign-out is ignored by the server)', async () => {
    installAuthHooks({ token: () => 'tok', reauthenticate: () => Promise.reject(new Error('no')), expired: () => {} });
    const calls = capture();
    await authApi.logout();
    expect(calls[0]!.token).toBe('tok');
  });
});
