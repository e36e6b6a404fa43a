// Message codes (server answers, spec §8 client codes 0–16, docs/messages.md §8, and the console's own: no socket,
// required, tooLong, aborted) as sentences, read like every other failure (shared/errorText): the generic codes
// (400, 404, 105, 429, network, timeout, failed, …) are common's, the message's own are its errors.<code>.
import { useCallback } from 'react';
import { useErrorText } from '../../shared/errorText';

/** A message code as the failure errorText reads; the sender's 'no socket' is errors.noSocket (a key holds no space). */
export function codeFailure(code: string): { code: string } {
  return { code: code === 'no socket' ? 'noSocket' : code };
}

/** The sentence of a message code. */
export function useCodeText(): (code: string) => string {
  const text = useErrorText('message');
  return useCallback((code: string) => text(codeFailure(code)), [text]);
}
