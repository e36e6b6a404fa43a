// Server and client codes → the message namespace's texts (spec §8 client codes 0–16, docs/messages.md §8).
import type { TFunction } from 'i18next';

const KNOWN = new Set([
  'no socket', '4', '10', '11', '16', '24', '70', '71', '72', '73', '74', '75', '76', '77', '78', '79', '93', '94', '95',
  '105', '400', '404', '408', '429', 'timeout', 'network', 'aborted', 'required', 'tooLong',
]);

/** The text for a code; t is the 'message' namespace. */
export function codeText(t: TFunction, code: string): string {
  const key = code === 'no socket' ? 'noSocket' : code;
  return KNOWN.has(code) ? t(`codes.${key}`) : t('codes.unknown', { code });
}
