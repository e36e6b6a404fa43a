// Why this window was signed out, kept in sessionStorage over the page load that takes it to the login page, which
// says so (issue 32: a dispatcher whose session another sign-in replaced must learn where and when, not just land
// on an empty form).
import type { TFunction } from 'i18next';
import { create } from 'zustand';
import type { ReplacedBy } from '../../shared/socket/client';
import { readJSON, removeKey, session, writeJSON } from '../../shared/utils/storage';

export type SignedOut = { reason: 'expired' } | ({ reason: 'replaced' } & ReplacedBy);

const KEY = 'tenfour.signedOut';

export const useSignedOut = create<{ notice?: SignedOut }>(() => ({ notice: readJSON<SignedOut>(session(), KEY) }));

/**
 * Set when the sign-out loads the login page anew: the router of the page being left may render the login page first
 * (its session is cleared), and that render must leave the notice to the new load, which is the page the dispatcher
 * sees (a CI run under load showed the login page without it).
 */
let reloading = false;

export function noteSignedOut(notice: SignedOut, opts: { reload?: boolean } = {}): void {
  writeJSON(session(), KEY, notice);
  reloading = opts.reload === true;
  useSignedOut.setState({ notice });
}

/** The login page showed the notice: the next page load does not show it again (it stays on screen until a sign-in). */
export function shownSignedOut(): void {
  if (!reloading) removeKey(session(), KEY);
}

/** A new sign-in: the old notice no longer applies. */
export function clearSignedOut(): void {
  reloading = false;
  removeKey(session(), KEY);
  useSignedOut.setState({ notice: undefined });
}

/** The notice in words: who replaced the session from where and when, or that it expired. */
export function signedOutText(t: TFunction, n: SignedOut, language: string): string {
  if (n.reason === 'expired') return t('common:errors.tokenTimeout');
  const time = n.time ? new Date(n.time).toLocaleString(language) : undefined;
  if (!time) return t('common:errors.replaced');
  return n.ip ? t('auth:signedOut.replacedFrom', { ip: n.ip, time }) : t('auth:signedOut.replacedAt', { time });
}
