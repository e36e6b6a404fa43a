// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { installPatrolCredentials, patrolHttp, setPatrolFetch, signOutPatrol } from './client';

interface Call {
  url: string;
  token?: string;
  body?: string;
}

// A patrol service that accepts only the token its last login issued.
function fakeService(opts: { loginCode?: string } = {}) {
  const calls: Call[] = [];
  let issued = 0;
  let valid = '';
  setPatrolFetch(async (input, init) => {
    const url = String(input);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url, token: headers.token, body: init?.body as string | undefined });
    const reply = (v: object) => new Response(JSON.stringify(v), { status: 200 });
    if (url.includes('sysUsers/login')) {
      if (opts.loginCode) return reply({ code: opts.loginCode, msg: 'no' });
      issued++;
      valid = `t${issued}`;
      return reply({ code: '200', result: { token: `t${issued}`, userInfo: { username: 'u' } } });
    }
    if (headers.token !== valid) return reply({ code: '1011', msg: 'patrol token expired' });
    return reply({ code: '200', result: { total: 0, list: [] } });
  });
  return { calls, expire: () => (valid = '') };
}

describe('patrol client and the "1011" rule (spec §8)', () => {
  beforeEach(() => {
    signOutPatrol();
    installPatrolCredentials(async () => ({ username: '10000001', password: '123456' }));
  });

  it('signs in with the stored credentials before the first call and sends the token header', async () => {
    const { calls } = fakeService();
    await expect(patrolHttp.get('tbPatrolArea/list')).resolves.toEqual({ total: 0, list: [] });
    expect(calls.map((c) => c.url)).toEqual(['/patrolService/sysUsers/login', '/patrolService/tbPatrolArea/list']);
    expect(JSON.parse(calls[0]!.body!)).toEqual({ username: '10000001', password: '123456' });
    expect(calls[1]!.token).toBe('t1');
  });

  it('on 1011 signs in again and retries once with the new token', async () => {
    const { calls, expire } = fakeService();
    await patrolHttp.get('tbPatrolArea/list');
    expire(); // a day later: t1 is no longer valid
    calls.length = 0;
    await expect(patrolHttp.get('tbPatrolPoint/list', { areaId: 1 })).resolves.toEqual({ total: 0, list: [] });
    expect(calls.map((c) => [c.url.split('?')[0], c.token ?? ''])).toEqual([
      ['/patrolService/tbPatrolPoint/list', 't1'],
      ['/patrolService/sysUsers/login', ''],
      ['/patrolService/tbPatrolPoint/list', 't2'],
    ]);
  });

  it('rejects with 1011 when signing in again fails, and with the code of other failures', async () => {
    fakeService({ loginCode: '2' });
    await expect(patrolHttp.get('tbPatrolArea/list')).rejects.toMatchObject({ code: '2' });
    installPatrolCredentials(async () => undefined);
    await expect(patrolHttp.get('tbPatrolArea/list')).rejects.toMatchObject({ code: '1011' });
  });
});
