// The patrol service's HTTP client (spec §7 "Patrol service", §8 "Patrol code 1011"; docs/api.md "Patrol
// service"): its own base (/patrolService), success code "200", a patrol token in the `token` header. On "1011"
// (the patrol token expired or is missing) it signs in to patrol again with the stored patrol credentials and
// retries once. The credentials are the dispatcher's PoC account: the console's stored sign-in (the app installs
// that source) or, on /patrol-sys without a console session, what the patrol sign-in form kept.
import { ApiError, buildUrl, HTTP_TIMEOUT_MS, type Envelope, type Params } from '../../shared/http/client';
import { seal, unseal, type Sealed } from '../../shared/utils/secret';
import { local, readJSON, removeKey, session, writeJSON } from '../../shared/utils/storage';

export const PATROL_BASE = '/patrolService/';
export const PATROL_OK = '200';
export const PATROL_EXPIRED = '1011';

export interface Credentials {
  username: string;
  password: string;
}

type CredentialSource = () => Promise<Credentials | undefined>;

const TOKEN_KEY = 'tenfour.patrol.token';
const CRED_KEY = 'tenfour.patrol.account';

let consoleCredentials: CredentialSource = async () => undefined;

/** The app's wiring gives the console's stored account (the one the "105" rule signs in again with). */
export function installPatrolCredentials(src: CredentialSource): void {
  consoleCredentials = src;
}

let token: string | undefined = readJSON<string>(session(), TOKEN_KEY);

function setToken(t: string | undefined) {
  token = t;
  if (t) writeJSON(session(), TOKEN_KEY, t);
  else removeKey(session(), TOKEN_KEY);
}

/** The patrol sign-in form's account (on /patrol-sys), kept sealed like the remembered password. */
async function keptCredentials(): Promise<Credentials | undefined> {
  const s = readJSON<{ username: string; secret: Sealed }>(local(), CRED_KEY);
  if (!s) return undefined;
  const password = await unseal(s.secret);
  return password === undefined ? undefined : { username: s.username, password };
}

async function credentials(): Promise<Credentials | undefined> {
  return (await keptCredentials()) ?? (await consoleCredentials());
}

let fetchImpl: typeof fetch = (...a) => fetch(...a);
/** Tests swap the transport. */
export function setPatrolFetch(f: typeof fetch): void {
  fetchImpl = f;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function once<T>(method: Method, path: string, params: Params | undefined, body: unknown, tok?: string): Promise<T> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort('timeout'), HTTP_TIMEOUT_MS);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (tok) headers.token = tok;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetchImpl(buildUrl(PATROL_BASE + path, params), { method, headers, body: payload, signal: ctrl.signal, credentials: 'same-origin' });
  } catch (e) {
    if (ctrl.signal.aborted) throw new ApiError('timeout', 'request timed out', undefined, true);
    throw new ApiError('network', e instanceof Error ? e.message : String(e), undefined, true);
  } finally {
    clearTimeout(timer);
  }
  let env: Envelope<T>;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    throw new ApiError('500', `HTTP ${res.status}`);
  }
  const code = String(env?.code ?? '500');
  if (code !== PATROL_OK) throw new ApiError(code, env?.msg ?? '', env?.key);
  return env.result as T;
}

interface LoginResult {
  token: string;
  userInfo: PatrolUser;
}

export interface PatrolUser {
  id: number;
  username: string;
  pocAccount: string;
  name: string;
  role: string;
}

/** sysUsers/login: a patrol token for a PoC account. */
export async function patrolLogin(c: Credentials): Promise<LoginResult> {
  const r = await once<LoginResult>('POST', 'sysUsers/login', undefined, { username: c.username, password: c.password });
  setToken(r.token);
  return r;
}

/** The /patrol-sys sign-in form: signs in and keeps the account for the "1011" rule. */
export async function signInPatrol(c: Credentials): Promise<PatrolUser> {
  const r = await patrolLogin(c);
  const secret = await seal(c.password);
  if (secret) writeJSON(local(), CRED_KEY, { username: c.username, secret });
  return r.userInfo;
}

export function signOutPatrol(): void {
  setToken(undefined);
  removeKey(local(), CRED_KEY);
}

/** Whether calls can be made without asking: a token, or credentials to get one. */
export async function canCallPatrol(): Promise<boolean> {
  return !!token || !!(await credentials());
}

let relogin: Promise<string> | null = null;

async function freshToken(): Promise<string> {
  relogin ??= (async () => {
    const c = await credentials();
    if (!c) throw new ApiError(PATROL_EXPIRED, 'patrol token expired', 'patrol:errors.1011');
    return (await patrolLogin(c)).token;
  })().finally(() => {
    relogin = null;
  });
  return relogin;
}

/**
 * Calls the patrol service. Without a token it signs in first; a "1011" answer signs in again with the stored
 * credentials and retries once (spec §8).
 */
export async function patrolRequest<T>(method: Method, path: string, params?: Params, body?: unknown): Promise<T> {
  const tok = token ?? (await freshToken());
  try {
    return await once<T>(method, path, params, body, tok);
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== PATROL_EXPIRED) throw e;
  }
  setToken(undefined);
  return once<T>(method, path, params, body, await freshToken());
}

export const patrolHttp = {
  get: <T>(path: string, params?: Params) => patrolRequest<T>('GET', path, params),
  del: <T>(path: string, params?: Params) => patrolRequest<T>('DELETE', path, params),
  post: <T>(path: string, body: unknown) => patrolRequest<T>('POST', path, undefined, body),
  put: <T>(path: string, body: unknown) => patrolRequest<T>('PUT', path, undefined, body),
};
