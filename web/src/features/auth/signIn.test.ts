// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { setFetch } from '../../shared/http/client';
import { LoginError, signIn } from './signIn';

interface Call {
  url: string;
  token?: string;
}

/** A server whose loginext refuses the e-mail code (102) while /ds/user accepts the password. */
function codeRefused(): Call[] {
  const calls: Call[] = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const u = String(url);
    calls.push({ url: u, token: (init?.headers as Record<string, string>).token });
    if (u.startsWith('/ds/pub/loginext')) return new Response(JSON.stringify({ code: '102', msg: 'user authentication failed' }), { status: 401 });
    if (u.startsWith('/ds/user/logout')) return new Response(JSON.stringify({ code: '0', result: {} }), { status: 200 });
    return new Response(JSON.stringify({ code: '0', result: { token: 'tok-1', userInfo: { msId: '10000001', msType: '20' } } }), { status: 200 });
  }) as typeof fetch);
  return calls;
}

afterEach(() => setFetch(fetch));

describe('e-mail code sign-in (loginext flag=1)', () => {
  it('sends the code with flag 1, and a refused code ends the session the right password opened', async () => {
    const calls = codeRefused();
    const err = await signIn('10000001', 'secret-pw', '123456').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoginError);
    expect((err as LoginError).code).toBe('102');
    const verify = new URL(calls.find((c) => c.url.startsWith('/ds/pub/loginext'))!.url, 'http://x');
    expect(Object.fromEntries(verify.searchParams)).toEqual({ uid: '10000001', flag: '1', verifyCode: '123456' });
    const logout = calls.find((c) => c.url.startsWith('/ds/user/logout'));
    expect(logout?.token).toBe('tok-1');
    expect(logout?.url).not.toContain('tok-1'); // in the header, not the address
  });
});
