import { ApiError } from './http/client';
import { SocketError } from './socket/client';

/** The code of a failed REST or socket request ('failed' for anything else). */
export function errorCode(e: unknown): string {
  if (e instanceof ApiError || e instanceof SocketError) return e.code;
  return 'failed';
}
