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

export function noteSignedOut(notice: SignedOut): void {
  writeJSON(session(), KEY, notice);
  useSignedOut.setState({ notice });
}

/** The login page showed the notice: the next page load does not show it again (it stays on screen until a sign-in). */
export function shownSignedOut(): void {
  removeKey(session(), KEY);
}

/** A new sign-in: the old notice no longer applies. */
export function clearSignedOut(): void {
  shownSignedOut();
  useSignedOut.setState({ notice: undefined });
}

/** The notice in words: who replaced the session from where and when, or that it expired. */
export function signedOutText(t: TFunction, n: SignedOut, language: string): string {
  if (n.reason === 'expired') return t('common:errors.tokenTimeout');
  const time = n.time ? new Date(n.time).toLocaleString(language) : undefined;
  if (!time) return t('common:errors.replaced');
  return n.ip ? t('auth:signedOut.replacedFrom', { ip: n.ip, time }) : t('auth:signedOut.replacedAt', { time });
}
