// The one place that connects the shared clients to the session (so shared/ knows nothing about features).
import { i18next } from '../i18n';
import { installAuthHooks } from '../shared/http/client';
import { configureLive, startLive } from '../shared/socket/live';
import { currentToken, useSession } from '../shared/session';
import { reauthenticate } from '../features/auth/signIn';
import { reauthAccount } from '../features/auth/remember';
import { noteSignedOut, signedOutText, type SignedOut } from '../features/auth/signedOut';
import { installPatrolCredentials } from '../features/patrol/client';
import { deleteTokenCookie } from '../shared/utils/cookies';
import { notifyGlobal } from '../shared/notify';
import { LOGIN_PATH } from '../shared/access/routes';

// The session ended: the login page the window lands on says why (signedOut.ts); a child window, which stays,
// says it in a notice.
function backToLogin(notice: SignedOut) {
  // Read before the session is cleared: the router then heads for the login page itself.
  const child = location.pathname.includes('child');
  const reload = !child && !location.pathname.startsWith(LOGIN_PATH);
  noteSignedOut(notice, { reload });
  reauthAccount.forget();
  deleteTokenCookie();
  useSession.getState().clear();
  if (child) notifyGlobal('error', signedOutText(i18next.t, notice, i18next.language));
  else if (reload) location.assign(LOGIN_PATH);
}

export function wireClients(): void {
  // The patrol service signs in with the dispatcher's PoC account: the one the "105" rule keeps (spec §8 "1011").
  installPatrolCredentials(async () => {
    const a = await reauthAccount.load();
    return a && { username: a.account, password: a.password };
  });
  installAuthHooks({
    token: currentToken,
    reauthenticate,
    expired: () => backToLogin({ reason: 'expired' }),
  });
  // The "105" rule for the socket too: one re-authentication with the stored account, then a fresh login; a
  // second refusal within a minute (or a failed re-authentication) ends the session.
  let lastSocketReauth = 0;
  configureLive({
    token: currentToken,
    onRejected: (code, by) => {
      if (code === '105' && Date.now() - lastSocketReauth > 60_000) {
        lastSocketReauth = Date.now();
        reauthenticate()
          .then(() => startLive())
          .catch(() => backToLogin({ reason: 'expired' }));
        return;
      }
      backToLogin(code === '7' ? { reason: 'replaced', ...by } : { reason: 'expired' });
    },
  });
}
