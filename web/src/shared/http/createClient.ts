// The one HTTP client of the console, configured per service (docs/adr/0033): the dispatch service (/ds, "0",
// "105"), the patrol service (/patrolService, "200", "1011") and the broadcast service (/broadcast/v1, 200, 401)
// differ only in their base, their success code, where their token comes from and which code asks to sign in
// again. Everything else — the envelope, query strings and JSON bodies, the timeout, transport failures, one
// re-authentication shared by parallel calls and one retry — is written here once.

export const HTTP_TIMEOUT_MS = 30_000; // spec §9

export interface Envelope<T> {
  code: string | number;
  msg?: string;
  key?: string;
  result?: T;
}

/** Every list answer of every service (the server's httpx.Page[T]). */
export interface Page<T> {
  total: number;
  list: T[];
}

/** An answer with a code other than the service's success, or a transport failure (`transport` is then true). */
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
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as the JSON body (POST/PUT/PATCH); without it those methods send the params as the body. */
  body?: unknown;
  /** A public or sign-in call: no token, no re-authentication. */
  anonymous?: boolean;
  /** A call with a token of its own (a service's sign-in that shows another session): no re-authentication. */
  token?: string;
  timeoutMs?: number;
}

export interface ClientConfig {
  /** Prefixed to every path, unless the path already starts with the base's first segment (another version of
   * the same service, e.g. /broadcast/api/v1 next to /broadcast/v1). '' for absolute paths. */
  base: string;
  /** The envelope code of success: "0" (/ds), "200" (/patrolService), 200 (/broadcast). */
  okCode: string;
  /** The token a call carries; may sign in first (a service whose token is made from the console's). */
  auth?: () => string | undefined | Promise<string | undefined>;
  /** Sign in again when an answer carries `code`, then retry the call once. */
  reauth?: {
    code: string;
    /** A new token; `stale` is the token the refused call carried. Parallel refusals share one renewal. */
    renew(stale: string | undefined): Promise<string>;
    /** The error to throw when renewing failed or the retry was refused again (default: that failure). */
    giveUp?(failure: unknown): Error;
  };
  /** The code of an answer that is not an envelope: "network" (a transport failure, the default) or a code. */
  noEnvelope?: string;
  /** The code of every transport failure (default "timeout" or "network"). */
  transportCode?: string;
  /** 0: no timeout. */
  timeoutMs?: number;
}

export function buildUrl(path: string, params?: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== undefined && v !== null) q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** base + path, unless path is already a full path of the same service. */
export function joinPath(base: string, path: string): string {
  if (!base) return path;
  const root = /^\/[^/]+\//.exec(base.endsWith('/') ? base : `${base}/`)?.[0];
  return root && path.startsWith(root) ? path : base + path;
}

export interface Client {
  request<T>(method: Method, path: string, params?: Params, opts?: RequestOptions): Promise<T>;
  get<T>(path: string, params?: Params, opts?: RequestOptions): Promise<T>;
  del<T>(path: string, params?: Params, opts?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  /** The result of an envelope read elsewhere (an upload with progress), or its error. */
  unwrap<T>(env: unknown, status: number): T;
  /** Tests swap the transport. */
  setFetch(f: typeof fetch): void;
}

export function createClient(cfg: ClientConfig): Client {
  // Resolved at each call, so a test's stubbed global fetch is used.
  let fetchImpl: typeof fetch = (...a) => fetch(...a);
  const noEnvelope = (status: number) =>
    cfg.noEnvelope ? new ApiError(cfg.noEnvelope, `HTTP ${status}`) : new ApiError('network', `HTTP ${status}`, undefined, true);

  function unwrap<T>(env: unknown, status: number): T {
    if (env == null || typeof env !== 'object' || (env as Envelope<T>).code === undefined) throw noEnvelope(status);
    const e = env as Envelope<T>;
    const code = String(e.code);
    if (code !== cfg.okCode) throw new ApiError(code, e.msg ?? '', e.key);
    return e.result as T;
  }

  async function once<T>(method: Method, path: string, params: Params | undefined, opts: RequestOptions, token?: string): Promise<T> {
    const ctrl = new AbortController();
    const ms = opts.timeoutMs ?? cfg.timeoutMs ?? HTTP_TIMEOUT_MS;
    const timer = ms > 0 ? setTimeout(() => ctrl.abort('timeout'), ms) : undefined;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.token = token;
    const full = joinPath(cfg.base, path);
    let url = buildUrl(full, params);
    let body: string | undefined;
    if (method !== 'GET' && method !== 'DELETE') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body ?? params ?? {});
      if (opts.body === undefined) url = full;
    }
    let res: Response;
    try {
      res = await fetchImpl(url, { method, headers, body, signal: ctrl.signal, credentials: 'same-origin' });
    } catch (e) {
      const timedOut = ctrl.signal.aborted && ctrl.signal.reason === 'timeout';
      const code = cfg.transportCode ?? (timedOut ? 'timeout' : 'network');
      throw new ApiError(code, timedOut ? 'request timed out' : e instanceof Error ? e.message : String(e), undefined, true);
    } finally {
      clearTimeout(timer);
    }
    let env: unknown;
    try {
      env = await res.json();
    } catch {
      throw noEnvelope(res.status);
    }
    return unwrap<T>(env, res.status);
  }

  // One renewal at a time: parallel calls that were all refused share it.
  let renewing: Promise<string> | null = null;
  const giveUp = (failure: unknown): Error => (cfg.reauth?.giveUp ? cfg.reauth.giveUp(failure) : (failure as Error));

  async function request<T>(method: Method, path: string, params?: Params, opts: RequestOptions = {}): Promise<T> {
    if (opts.anonymous) return once<T>(method, path, params, opts);
    if (opts.token !== undefined) return once<T>(method, path, params, opts, opts.token);
    const token = await cfg.auth?.();
    const re = cfg.reauth;
    try {
      return await once<T>(method, path, params, opts, token);
    } catch (e) {
      if (!re || !(e instanceof ApiError) || e.code !== re.code) throw e;
    }
    let fresh: string;
    try {
      renewing ??= re!.renew(token).finally(() => {
        renewing = null;
      });
      fresh = await renewing;
    } catch (e) {
      throw giveUp(e);
    }
    try {
      return await once<T>(method, path, params, opts, fresh);
    } catch (e) {
      if (e instanceof ApiError && e.code === re!.code) throw giveUp(e);
      throw e;
    }
  }

  return {
    request,
    get: <T,>(path: string, params?: Params, opts?: RequestOptions) => request<T>('GET', path, params, opts),
    del: <T,>(path: string, params?: Params, opts?: RequestOptions) => request<T>('DELETE', path, params, opts),
    post: <T,>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, undefined, { ...opts, body: body ?? {} }),
    put: <T,>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, undefined, { ...opts, body: body ?? {} }),
    patch: <T,>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, undefined, { ...opts, body: body ?? {} }),
    unwrap,
    setFetch: (f) => {
      fetchImpl = f;
    },
  };
}
