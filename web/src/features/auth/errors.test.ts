// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { mapLoginFailure, mapServerCode } from './errors';

const ok = <T>(value: T): PromiseSettledResult<T> => ({ status: 'fulfilled', value });
const no = (reason: unknown): PromiseSettledResult<never> => ({ status: 'rejected', reason });

describe('sign-in code mapping (spec §8)', () => {
  it('maps 107 with the lock text to 502 and keeps other 107s', () => {
    expect(mapServerCode('107', 'User is locked of 10 minutes')).toBe('502');
    expect(mapServerCode('107', 'no permission')).toBe('107');
  });
  it('maps 103 to 504 and passes other codes through', () => {
    expect(mapServerCode('103')).toBe('504');
    for (const c of ['1', '2', '3', '4', '5', '6', '101', '102', '104']) expect(mapServerCode(c)).toBe(c);
  });
  it('succeeds only when both calls succeed', () => {
    expect(mapLoginFailure(ok(1), ok(2))).toBeUndefined();
  });
  it('shows the code of the answer that failed (verify first)', () => {
    expect(mapLoginFailure(ok(1), no(new ApiError('2', 'incorrect password')))).toBe('2');
    expect(mapLoginFailure(no(new ApiError('6')), no(new ApiError('2')))).toBe('6');
    expect(mapLoginFailure(no(new ApiError('107', 'User is locked of 10 minutes')), ok(1))).toBe('502');
    expect(mapLoginFailure(ok(1), no(new ApiError('103')))).toBe('504');
  });
  it('gives 503 when both fail without an answer', () => {
    expect(mapLoginFailure(no(new ApiError('network', '', undefined, true)), no(new TypeError('fetch failed')))).toBe('503');
  });
  it('gives login timeout when a call timed out', () => {
    expect(mapLoginFailure(no(new ApiError('timeout', '', undefined, true)), no(new ApiError('timeout', '', undefined, true)))).toBe('timeout');
    expect(mapLoginFailure(ok(1), no(new ApiError('timeout', '', undefined, true)))).toBe('timeout');
  });
});
