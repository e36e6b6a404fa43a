import { useEffect, useState } from 'react';
import { storedAccount } from './account';
import { signIn, wake } from './session';

/**
 * Signs in with the remembered account at start (true while that runs), and reconnects at once when the page comes
 * back to the foreground or the network comes back.
 */
export function useAutoSignIn(): boolean {
  const [booting, setBooting] = useState(true);
  useEffect(() => {
    let live = true;
    void storedAccount().then(async (a) => {
      if (a?.password && live) await signIn(a.uid, a.password, true);
      if (live) setBooting(false);
    });
    const onVisible = () => document.visibilityState === 'visible' && wake();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', wake);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', wake);
    };
  }, []);
  return booting;
}
