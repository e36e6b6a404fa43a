// The one HTTP client for the dispatch service. Every response is the {code,msg,result} envelope
// (docs/api.md); "0" is success and "105" on a data call means the token expired (spec §8 "Token expiry").

export const HTTP_TIMEOUT_MS = 30_000; // spec §9

export interface Envelope<T> {
  code: string;
  msg?: string;
  key?: string;
  result?: T;
}

/** An answer with a non-zero code, or a transport failure (`code` is then "network" or "timeout"). */
export class ApiError extends Error {
  readonly code: string;
  readonly key?: string;
  readonly serverMsg: string;
  readonly transport: boolean;
  constructor(code: string, serverMsg = '', key?: string, transport = false) {
    super(`${code}${serverMsg ? `: ${serverMsg}` : ''}`);
    this.name = 'ApiError';
    this.code = code;
    this.key = key;
    this.serverMsg = serverMsg;
    this.transport = transport;
  }
}

export type Params = Record<string, string | number | boolean | undefined | null>;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  /** Send as JSON body (POST/PUT) — default for POST/PUT. */
  body?: unknown;
  /** A public or sign-in call: no token, no "105" re-auth. */
  anonymous?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Hooks the auth feature installs, so this module knows nothing about sessions. */
export interface AuthHooks {
  token(): string | undefined;
  /** Sign in again with the stored account; resolves to the new token, or rejects. */
  reauthenticate(): Promise<string>;
  /** Re-auth failed: tell the user 'ds token timeout' and go to the sign-in page. */
  expired(): void;
}

let hooks: AuthHooks = {
  token: () => undefined,
  reauthenticate: () => Promise.reject(new ApiError('105')),
  expired: () => {},
};
export function installAuthHooks(h: AuthHooks): void {
  hooks = h;
}

let fetchImpl: typeof fetch = (...a) => fetch(...a);
/** Tests swap the transport. */
export function setFetch(f: typeof fetch): void {
  fetchImpl = f;
}

export function buildUrl(path: string, params?: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== undefined && v !== null) q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

async function once<T>(method: Method, path: string, params: Params | undefined, opts: RequestOptions, token?: string): Promise<T> {
  const ctrl = new AbortController();
  const timeout = setTimeout(() => ctrl.abort('timeout'), opts.timeoutMs ?? HTTP_TIMEOUT_MS);
  opts.signal?.addEventListener('abort', () => ctrl.abort(opts.signal?.reason));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.token = token;
  let body: string | undefined;
  let url = buildUrl(path, params);
  if (method === 'POST' || method === 'PUT') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body ?? params ?? {});
    if (opts.body === undefined) url = path;
  }
  let res: Response;
  try {
    res = await fetchImpl(url, { method, headers, body, signal: ctrl.signal, credentials: 'same-origin' });
  } catch (e) {
    if (ctrl.signal.aborted && ctrl.signal.reason === 'timeout') throw new ApiError('timeout', 'request timed out', undefined, true);
    throw new ApiError('network', e instanceof Error ? e.message : String(e), undefined, true);
  } finally {
    clearTimeout(timeout);
  }
  let env: Envelope<T>;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    throw new ApiError('network', `HTTP ${res.status}`, undefined, true);
  }
  if (env == null || typeof env !== 'object' || env.code === undefined) throw new ApiError('network', `HTTP ${res.status}`, undefined, true);
  const code = String(env.code);
  if (code !== '0') throw new ApiError(code, env.msg ?? '', env.key);
  return env.result as T;
}

// One re-authentication at a time: parallel calls that all got "105" share it.
let reauthInFlight: Promise<string> | null = null;

/**
 * Calls the dispatch service. A data call answered "105" re-authenticates with the stored account and retries
 * once with the new token; if that fails the user is told 'ds token timeout' and sent to sign-in.
 */
export async function request<T>(method: Method, path: string, params?: Params, opts: RequestOptions = {}): Promise<T> {
  if (opts.anonymous) return once<T>(method, path, params, opts);
  try {
    return await once<T>(method, path, params, opts, hooks.token());
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== '105') throw e;
  }
  let token: string;
  try {
    reauthInFlight ??= hooks.reauthenticate().finally(() => {
      reauthInFlight = null;
    });
    token = await reauthInFlight;
  } catch {
    hooks.expired();
    throw new ApiError('105', 'ds token timeout', 'errors.tokenTimeout');
  }
  try {
    return await once<T>(method, path, params, opts, token);
  } catch (e) {
    if (e instanceof ApiError && e.code === '105') {
      hooks.expired();
      throw new ApiError('105', 'ds token timeout', 'errors.tokenTimeout');
    }
    throw e;
  }
}

export const http = {
  get: <T>(path: string, params?: Params, opts?: RequestOptions) => request<T>('GET', path, params, opts),
  del: <T>(path: string, params?: Params, opts?: RequestOptions) => request<T>('DELETE', path, params, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, undefined, { ...opts, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, undefined, { ...opts, body: body ?? {} }),
};
