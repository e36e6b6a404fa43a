// Codes of the SOS and lone-work calls (docs/safety.md) → sentences (keys codes.* of the "alarm" namespace).
import type { TFunction } from 'i18next';
import { errorCode } from '../errors';

export { errorCode };

const KNOWN = new Set(['4', '90', '93', '95', '400', '404', '408', '429', '500', 'network', 'timeout']);

/** The message key of a failure (for codes that also decide where the message goes). */
export function errorKey(e: unknown): { key: string; code: string } {
  const code = errorCode(e);
  return { key: KNOWN.has(code) ? `codes.${code}` : 'codes.other', code };
}

/** A failed call as a sentence (t of the "alarm" namespace). */
export function errorText(t: TFunction, e: unknown): string {
  const { key, code } = errorKey(e);
  return t(key, { code });
}
