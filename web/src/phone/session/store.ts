// The session of the phone app: signed out, signing in or signed in as a terminal account, the socket's status,
// and while signed in the live link (socket, voice engine, reporters). Every part reaches the socket through here.
import { create } from 'zustand';
import type { TermStatus } from '../socket';
import type { PhoneLink } from './link';

export interface SessionState {
  phase: 'login' | 'connecting' | 'ready';
  /** The account signing in or signed in (kept after sign-out to fill the form again). */
  uid?: string;
  status: TermStatus;
  /** The refusal code of the last sign-in ("network", "replaced" or the server's code). */
  loginError?: string;
  link?: PhoneLink;
  /** The customer's current voice-encryption key (`key.changed`, docs/terminal-protocol.md "Secret key"). */
  secretKey?: string;
}

export const useSession = create<SessionState>(() => ({ phase: 'login', status: 'idle' }));

/** The terminal socket while signed in. */
export const phoneSocket = () => useSession.getState().link?.sock;

/** The voice engine while signed in. */
export const phoneEngine = () => useSession.getState().link?.engine;
