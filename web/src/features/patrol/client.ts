// The patrol service's HTTP client (spec §7 "Patrol service", §8 "Patrol code 1011"; docs/api.md "Patrol
// service"): its own base (/patrolService), success code "200", a patrol token in the `token` header. On "1011"
// (the patrol token expired or is missing) it signs in to patrol again with the stored patrol credentials and
// retries once. The credentials are the dispatcher's PoC account: the console's stored sign-in (the app installs
// that source) or, on /patrol-sys without a console session, what the patrol sign-in form kept. The transport is
// the console's one client (shared/http/createClient.ts) configured for this service.
import { ApiError } from '../../shared/http/client';
import { createClient } from '../../shared/http/createClient';
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
  const r = await patrol.post<LoginResult>('sysUsers/login', { username: c.username, password: c.password }, { anonymous: true });
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
    if (!c) throw new ApiError(PATROL_EXPIRED, 'patrol token expired', 'patrol.errors.1011');
    return (await patrolLogin(c)).token;
  })().finally(() => {
    relogin = null;
  });
  return relogin;
}

/**
 * The patrol service. Without a token it signs in first; a "1011" answer signs in again with the stored
 * credentials and retries once (spec §8). An answer that is not an envelope is "500".
 */
const patrol = createClient({
  base: PATROL_BASE,
  okCode: PATROL_OK,
  noEnvelope: '500',
  auth: () => token ?? freshToken(),
  reauth: {
    code: PATROL_EXPIRED,
    renew: () => {
      setToken(undefined);
      return freshToken();
    },
  },
});

/** Tests swap the transport. */
export const setPatrolFetch = patrol.setFetch;

export const patrolHttp = { get: patrol.get, del: patrol.del, post: patrol.post, put: patrol.put };
