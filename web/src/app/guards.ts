// The six guard rules of spec §2, as one pure function the router and the tests share.
import { isDsKeyEnabled, type GateContext } from '../shared/access/features';
import { findRoute, LOGIN_PATH, NOT_FOUND_PATH, PERMITTED_FRAGMENTS, REDIRECTS } from '../shared/access/routes';

export interface GuardInput {
  pathname: string;
  hasToken: boolean;
  gate: GateContext;
}

export type GuardDecision =
  | { kind: 'allow'; deleteTokenCookie?: boolean }
  | { kind: 'redirect'; to: string };

/** Rule 6: child copies and /patrol-sys skip the token check. */
export function skipsTokenCheck(pathname: string): boolean {
  return pathname.includes('child') || pathname === '/patrol-sys';
}

export function guard({ pathname, hasToken, gate }: GuardInput): GuardDecision {
  const route = findRoute(pathname);
  // Rule 1 (and 2: a route group whose data-source value is 0 is not added, so it is not found): a route whose
  // feature is off for this host, version and configuration goes to 404.
  const featureOff = route?.dsKey !== undefined && !isDsKeyEnabled(route.dsKey, gate);

  if (skipsTokenCheck(pathname)) {
    if (!route || featureOff) return { kind: 'redirect', to: NOT_FOUND_PATH };
    return { kind: 'allow' };
  }
  // Rule 3: without a session token every route goes to login.
  if (!hasToken) return pathname === LOGIN_PATH ? { kind: 'allow' } : { kind: 'redirect', to: LOGIN_PATH };
  // Rule 4: with a token, opening login deletes the token cookie and continues.
  if (pathname === LOGIN_PATH) return { kind: 'allow', deleteTokenCookie: true };
  if (REDIRECTS[pathname]) return { kind: 'redirect', to: REDIRECTS[pathname]! };
  // Rule 5: other routes only when the path contains a permitted fragment.
  if (!PERMITTED_FRAGMENTS.some((f) => pathname.includes(f))) return { kind: 'redirect', to: NOT_FOUND_PATH };
  if (!route || featureOff) return { kind: 'redirect', to: NOT_FOUND_PATH };
  return { kind: 'allow' };
}
