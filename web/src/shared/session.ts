import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { deleteTokenCookie, getTokenCookie, setTokenCookie } from './utils/cookies';

export type DsConfig = Record<string, number | string | boolean>;

export interface SessionFields {
  version: string;
  timeZone: string;
  mediaServer: string[];
  mediaFileUrl: string;
  dsConfig: DsConfig;
  language?: string;
  /** Account type code of spec §6 ("-2" or "1"); see web/NEEDS.md. */
  accountType?: string;
  isOnline?: string;
}

export interface UserInfo {
  msId: string;
  msName: string;
  msType: string;
  gId: string;
  gName: string;
  pttGroup: string;
  secretKey: string;
  /** May unlock accounts and change others' passwords (docs/api.md "Sign-in pair"). */
  admin?: boolean;
}

// The signed-in session (spec §3 "Session"). Persisted in localStorage so child windows share it.
export interface Session {
  token: string;
  account: string;
  userInfo: UserInfo;
  version: string;
  /** Time zone offset in milliseconds (the server sends hours). */
  timeZoneMs: number;
  mediaServer: string[];
  mediaFileUrl: string;
  dsConfig: DsConfig;
  language?: string;
  accountType: string;
}

interface SessionState {
  session?: Session;
  setSession: (s: Session) => void;
  clear: () => void;
}

export const SESSION_KEY = 'tenfour.session';

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      session: undefined,
      setSession: (session) => {
        setTokenCookie(session.token);
        set({ session });
      },
      clear: () => {
        deleteTokenCookie();
        set({ session: undefined });
      },
    }),
    { name: SESSION_KEY, partialize: (s) => ({ session: s.session }) },
  ),
);

/** Spec: timeZone is hours (may be fractional); stored as milliseconds. */
export function timeZoneToMs(hours: string | number | undefined): number {
  const h = typeof hours === 'number' ? hours : parseFloat(hours ?? '');
  return Number.isFinite(h) ? Math.round(h * 3_600_000) : 0;
}

/**
 * The token the guards see: the token cookie (1 day), together with the session it belongs to. A cookie without
 * a session (cookies ignore the port, storage does not) cannot run the console, so it counts as no token.
 */
export function hasToken(): boolean {
  return !!getTokenCookie() && !!useSession.getState().session;
}

export function currentToken(): string | undefined {
  return getTokenCookie() ?? useSession.getState().session?.token;
}
