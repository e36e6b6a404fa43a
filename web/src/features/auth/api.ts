// Typed client of the sign-in and account calls (docs/api.md "Sign-in pair", "Other account calls").
import { http } from '../../shared/http/client';
import type { SessionFields, UserInfo } from '../../shared/session';

export type { DsConfig, SessionFields, UserInfo } from '../../shared/session';

export const AUTH_PATHS = {
  verify: '/ds/pub/loginext',
  auth: '/ds/user',
  account: '/ds/user/getAccount',
  logout: '/ds/user/logout',
  updatePwd: '/ds/data/updateMsPwd',
  verifyCode: '/ds/pub/getVerifyCode',
  bindEmail: '/ds/pub/bindEmail',
  resetPwd: '/ds/pub/resetPwd',
  unlock: '/ds/user/unlockUser',
  oauth: '/ds/user/getAccountByOauth',
  oauthProviders: '/ds/pub/oauthProviders',
  oauthStart: '/ds/pub/oauthStart',
} as const;

export interface AuthResult extends SessionFields {
  token: string;
  userInfo: UserInfo;
}

export type VerifyCodeType = 'bind' | 'reset' | 'login';

/** An OAuth provider the host offers on its login page (docs/api.md "OAuth sign-in"). */
export interface OAuthProvider {
  platform: string;
  name: string;
}

export const authApi = {
  verify: (uid: string, flag: '0' | '1' = '0', verifyCode = '') =>
    http.get<SessionFields>(AUTH_PATHS.verify, { uid, flag, verifyCode }, { anonymous: true }),
  /** The password goes in the body, never the URL (proxies log URLs); the server still takes the spec's GET. */
  auth: (uid: string, auth: string) => http.post<AuthResult>(AUTH_PATHS.auth, { uid, auth }, { anonymous: true }),
  account: () => http.get<{ userInfo: UserInfo } | UserInfo>(AUTH_PATHS.account),
  /** With the token header: the server ignores a sign-out that carries the cookie alone (an <img> could). */
  logout: () => http.get<unknown>(AUTH_PATHS.logout),
  /** Ends the session of a token this console never used (a sign-in whose other half was refused). */
  revoke: (token: string) => http.get<unknown>(AUTH_PATHS.logout, {}, { token }),
  updatePassword: (p: { msId: string; oldPwd: string; newPwd: string; account: string }) => http.put<unknown>(AUTH_PATHS.updatePwd, p),
  getVerifyCode: (p: { uid: string; email: string; type: VerifyCodeType; lang: string }) =>
    http.get<unknown>(AUTH_PATHS.verifyCode, p, { anonymous: true }),
  bindEmail: (p: { uid: string; auth: string; email: string; verifyCode: string }) => http.post<unknown>(AUTH_PATHS.bindEmail, p, { anonymous: true }),
  resetPassword: (p: { uid: string; email: string; verifyCode: string; newPwd: string }) =>
    http.post<unknown>(AUTH_PATHS.resetPwd, p, { anonymous: true }),
  /** An administrator lifts the lockout of an account of its customer (107 for anyone else, 404 an unknown account). */
  unlock: (uid: string) => http.get<{ msId: string }>(AUTH_PATHS.unlock, { uid }),
  /** The providers of the host the console was opened at. */
  oauthProviders: () => http.get<OAuthProvider[]>(AUTH_PATHS.oauthProviders, {}, { anonymous: true }),
  /** The provider's authorization address, with a state the server gave this browser (cookie). */
  oauthStart: (platform: string) => http.get<{ url: string }>(AUTH_PATHS.oauthStart, { platform }, { anonymous: true }),
  /** Back from the provider: its code (and the state) for a session, as /ds/user answers. */
  oauth: (p: { platform: string; oauth: string; state: string }) => http.get<AuthResult>(AUTH_PATHS.oauth, p, { anonymous: true }),
};
