// Sign-in code mapping (spec §8 "Login codes").
import { ApiError } from '../../shared/http/client';

export const LOCKED_TEXT = 'User is locked of 10 minutes';

/** Codes the sign-in page has messages for; anything else shows the generic text with the code. */
export const LOGIN_CODES = ['1', '2', '3', '4', '5', '6', '101', '102', '103', '104', '107', '502', '503', '504', 'timeout'] as const;

/** One server answer → the code the user sees: 107+locked → 502, 103 → 504, others pass through. */
export function mapServerCode(code: string, msg = ''): string {
  if (code === '107' && msg.includes(LOCKED_TEXT)) return '502';
  if (code === '103') return '504';
  return code;
}

type Settled<T> = PromiseSettledResult<T>;

/**
 * Combines the parallel verify and auth answers. Returns undefined when both succeeded, else the code to show:
 * the first coded answer (verify, then auth) mapped by mapServerCode; 'timeout' when a request timed out and no
 * answer carried a code; 503 when both failed without an answer (and when one failed that way).
 */
export function mapLoginFailure<A, B>(verify: Settled<A>, auth: Settled<B>): string | undefined {
  const reasons = [verify, auth].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
  if (reasons.length === 0) return undefined;
  const coded = reasons.find((r): r is ApiError => r instanceof ApiError && !r.transport);
  if (coded) return mapServerCode(coded.code, coded.serverMsg);
  if (reasons.some((r) => r instanceof ApiError && r.code === 'timeout')) return 'timeout';
  return '503';
}
