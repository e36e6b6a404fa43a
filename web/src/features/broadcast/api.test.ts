import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { broadcastApi, call, clock } from './api';

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => vi.unstubAllGlobals());

describe('broadcast api', () => {
  it('takes code 200 as success and returns the result', async () => {
    const f = answer(200, { code: 200, msg: 'ok', result: { total: 1, list: [{ id: 1 }] } });
    vi.stubGlobal('fetch', f);
    await expect(broadcastApi.orgs()).resolves.toEqual({ total: 1, list: [{ id: 1 }] });
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/broadcast/v1/org?page=1&limit=1000');
    expect(init.method).toBe('GET');
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
    const urls = f.mock.calls.map((c) => (c as unknown as [string])[0]);
    expect(urls).toEqual(['/broadcast/api/v1/org', '/broadcast/v1/org']);
    const body = JSON.parse(((f.mock.calls[1] as unknown as [string, RequestInit])[1].body as string) ?? '{}') as { parent_id: number };
    expect(body.parent_id).toBe(9);
  });

  it('shows lengths as m:ss', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(61_999)).toBe('1:01');
    expect(clock(-5)).toBe('0:00');
  });
});
