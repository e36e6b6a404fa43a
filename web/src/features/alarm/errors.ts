// Codes of the SOS calls (docs/safety.md) → sentences of the "alarm" namespace.
import type { TFunction } from 'i18next';
import { ApiError } from '../../shared/http/client';
import { SocketError } from '../../shared/socket/client';
import { VoiceFailure } from './voice';

const KNOWN = new Set(['4', '90', '93', '95', '400', '404', '408', '429', '500', 'network', 'timeout']);

export function errorCode(e: unknown): string {
  return e instanceof ApiError || e instanceof SocketError ? e.code : 'failed';
}

/** The message key of a failure (for codes that also decide where the message goes). */
export function errorKey(e: unknown): { key: string; code: string } {
  const code = errorCode(e);
  return { key: KNOWN.has(code) ? `codes.${code}` : 'codes.other', code };
}

/** A failed alarm action as a sentence (t of the "alarm" namespace). */
export function errorText(t: TFunction, e: unknown): string {
  if (e instanceof VoiceFailure) return e.text;
  const { key, code } = errorKey(e);
  return t(key, { code });
}
