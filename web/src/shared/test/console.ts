// The set-up the console's component tests share: English words, the DOM cleaned after each case, and for the
// tests that reach the HTTP client a signed-in session and the server's JSON answers.
import { afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n } from '../../i18n';
import { installAuthHooks } from '../http/client';

/** Gives the HTTP client a session token ('tok') that never expires and cannot be renewed. */
export function signIn(): void {
  installAuthHooks({ token: () => 'tok', reauthenticate: () => Promise.reject(new Error('no')), expired: () => {} });
}

/** Registers the file's hooks: English before all cases (signed in with signedIn), cleanup after each. */
export function englishConsole(opts: { signedIn?: boolean } = {}): void {
  beforeAll(async () => {
    await initI18n('en-US');
    if (opts.signedIn) signIn();
  });
  afterEach(cleanup);
}

/** A server answer: body as JSON with the given status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
