// The sign-in sequence of spec §4 "Login": verify and auth in parallel, code mapping, session storage, socket
// login within 15 s.
import { ApiError } from '../../shared/http/client';
import { SocketError } from '../../shared/socket/client';
import { startLive, stopLive } from '../../shared/socket/live';
import { authApi, type AuthResult, type SessionFields } from './api';
import { mapLoginFailure } from './errors';
import { reauthAccount } from './remember';
import { timeZoneToMs, useSession, type Session } from '../../shared/session';

export class LoginError extends Error {
  readonly code: string;
  constructor(code: string) {
    super(`login failed: ${code}`);
    this.name = 'LoginError';
    this.code = code;
  }
}

export const DISPATCHER_TYPE = '20';

export function toSession(account: string, verify: SessionFields, auth: AuthResult): Session {
  const f = { ...verify, ...auth };
  return {
    token: auth.token,
    account,
    userInfo: auth.userInfo,
    version: String(f.version ?? '0'),
    timeZoneMs: timeZoneToMs(f.timeZone),
    mediaServer: f.mediaServer ?? [],
    mediaFileUrl: f.mediaFileUrl ?? '',
    dsConfig: f.dsConfig ?? {},
    language: f.language,
    accountType: String(f.accountType ?? '1'),
  };
}

/**
 * Signs in; resolves with the stored session or rejects with a LoginError carrying the code to show. With an e-mail
 * code (sent by getVerifyCode type=login) the verify call carries it with flag=1 (a wrong or used code: 102).
 */
export async function signIn(account: string, password: string, emailCode?: string): Promise<Session> {
  const verifyCall = emailCode ? authApi.verify(account, '1', emailCode) : authApi.verify(account);
  const [verify, auth] = await Promise.allSettled([verifyCall, authApi.auth(account, password)]);
  const code = mapLoginFailure(verify, auth);
  if (code) {
    // The password was right but the other half refused (a wrong e-mail code, …): the session /ds/user opened
    // is ended rather than left live behind the refusal.
    if (auth.status === 'fulfilled' && auth.value?.token) await authApi.revoke(auth.value.token).catch(() => {});
    throw new LoginError(code);
  }
  const v = (verify as PromiseFulfilledResult<SessionFields>).value;
  const a = (auth as PromiseFulfilledResult<AuthResult>).value;
  return establish(account, v, a, () => reauthAccount.save(account, password));
}

/**
 * Signs in with the code a host's OAuth provider sent the browser back with (docs/api.md "OAuth sign-in"). There is
 * no password to re-authenticate with later: an expired token (105) ends the session.
 */
export async function signInOAuth(platform: string, code: string, state: string): Promise<Session> {
  let a: AuthResult;
  try {
    a = await authApi.oauth({ platform, oauth: code, state });
  } catch (e) {
    throw new LoginError(mapLoginFailure({ status: 'fulfilled', value: undefined }, { status: 'rejected', reason: e }) ?? '503');
  }
  reauthAccount.forget();
  return establish(a?.userInfo?.msId ?? '', a, a, async () => {});
}

/** Leaves the browser for an address (the OAuth provider's); a seam for tests. */
export const browserNav = { go: (url: string) => window.location.assign(url) };

/** Stores the session of a dispatcher's sign-in answers (after keep) and logs the socket in within 15 s. */
async function establish(account: string, v: SessionFields, a: AuthResult, keep: () => Promise<void>): Promise<Session> {
  if (a?.userInfo?.msType !== DISPATCHER_TYPE) throw new LoginError('6');
  const session = toSession(account, v, a);
  useSession.getState().setSession(session);
  await keep();
  try {
    await startLive();
  } catch (e) {
    stopLive();
    useSession.getState().clear();
    const c = e instanceof SocketError || e instanceof ApiError ? e.code : '503';
    throw new LoginError(c === 'timeout' ? 'timeout' : c === '4' ? '503' : c);
  }
  return session;
}

/** Re-authenticates with the stored account (the "105" rule); resolves to the new token. */
export async function reauthenticate(): Promise<string> {
  const acc = await reauthAccount.load();
  if (!acc) throw new LoginError('105');
  const a = await authApi.auth(acc.account, acc.password);
  const cur = useSession.getState().session;
  if (!cur) throw new LoginError('105');
  useSession.getState().setSession({ ...cur, token: a.token });
  return a.token;
}

export async function signOut(): Promise<void> {
  stopLive();
  await authApi.logout().catch(() => {});
  reauthAccount.forget();
  useSession.getState().clear();
}
