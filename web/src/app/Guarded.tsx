import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { hasToken, useSession } from '../shared/session';
import { stopLive } from '../shared/socket/live';
import { deleteTokenCookie } from '../shared/utils/cookies';
import { useGateContext } from '../shared/access/gate';
import { guard } from './guards';

/** Applies the guard rules of spec §2 on every navigation. */
export function Guarded() {
  const location = useLocation();
  useSession((s) => s.session?.token); // re-evaluate when the token changes
  const gate = useGateContext();
  const decision = guard({ pathname: location.pathname, hasToken: hasToken(), gate });
  const handledKey = useRef<string>('');

  useEffect(() => {
    // Rule 4: opening /login with a token deletes the token cookie — decided once when the navigation lands, so
    // signing in on the login page (which adds a token without navigating) does not delete the new one.
    if (handledKey.current === location.key) return;
    handledKey.current = location.key;
    if (decision.kind === 'allow' && decision.deleteTokenCookie) {
      stopLive();
      deleteTokenCookie();
      useSession.getState().clear();
    }
  }, [decision, location.key]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}
