// The dispatch service's client: createClient (createClient.ts) configured for /ds. Every response is the
// {code,msg,result} envelope (docs/api.md); "0" is success and "105" on a data call means the token expired (spec §8
// "Token expiry"): sign in again with the stored account and retry once, else 'ds token timeout' and sign-in.
import { ApiError, createClient } from './createClient';

export { ApiError, buildUrl, type Page, type Params } from './createClient';

/** Hooks the auth feature installs, so this module knows nothing about sessions. */
export interface AuthHooks {
  token(): string | undefined;
  /** Sign in again with the stored account; resolves to the new token, or rejects. */
  reauthenticate(): Promise<string>;
  /** Re-auth failed: tell the user 'ds token timeout' and go to the sign-in page. */
  expired(): void;
}

let hooks: AuthHooks = {
  token: () => undefined,
  reauthenticate: () => Promise.reject(new ApiError('105')),
  expired: () => {},
};
export function installAuthHooks(h: AuthHooks): void {
  hooks = h;
}

const ds = createClient({
  base: '',
  okCode: '0',
  auth: () => hooks.token(),
  reauth: {
    code: '105',
    renew: () => hooks.reauthenticate(),
    giveUp: () => {
      hooks.expired();
      return new ApiError('105', 'ds token timeout', 'errors.tokenTimeout');
    },
  },
});

/** Tests swap the transport. */
export const setFetch = ds.setFetch;

/**
 * Calls the dispatch service. A data call answered "105" re-authenticates with the stored account and retries
 * once with the new token; if that fails the user is told 'ds token timeout' and sent to sign-in.
 */
export const http = { get: ds.get, del: ds.del, post: ds.post, put: ds.put };
