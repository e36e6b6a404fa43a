import { useEffect, useState } from 'react';
import { t, tCode } from '../i18n';
import { LanguagePicker } from '../ui/LanguagePicker';
import { storedAccount } from './account';
import { signIn } from './session';
import { useSession } from './store';

export function Login() {
  const phase = useSession((s) => s.phase);
  const error = useSession((s) => s.loginError);
  const lastUid = useSession((s) => s.uid);
  const [uid, setUid] = useState(lastUid ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);

  // The account of the last sign-in on this device fills the form.
  useEffect(() => {
    if (lastUid) return;
    let live = true;
    void storedAccount().then((a) => live && a && setUid((u) => u || a.uid));
    return () => {
      live = false;
    };
  }, [lastUid]);

  const busy = phase === 'connecting';
  return (
    <div className="p-login" data-testid="phone-login">
      <div className="p-login-card">
        <div className="p-logo" aria-hidden>
          <svg viewBox="0 0 48 48" width="56" height="56">
            <rect x="14" y="4" width="20" height="40" rx="6" fill="currentColor" opacity=".9" />
            <rect x="18" y="10" width="12" height="10" rx="2" fill="#0b1a2a" />
            <circle cx="24" cy="31" r="5" fill="#0b1a2a" />
          </svg>
        </div>
        <h1>{t('app.title')}</h1>
        <p className="p-muted">{t('login.title')}</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (uid && password && !busy) void signIn(uid.trim(), password, remember);
          }}
        >
          <label className="p-field">
            <span>{t('login.account')}</span>
            <input inputMode="numeric" autoComplete="username" value={uid} onChange={(e) => setUid(e.target.value)} data-testid="phone-account" required />
          </label>
          <label className="p-field">
            <span>{t('login.password')}</span>
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="phone-password" required />
          </label>
          <label className="p-check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <span>{t('login.remember')}</span>
          </label>
          {error && (
            <div className="p-error" role="alert" data-testid="phone-login-error" data-code={error}>
              {tCode('loginError', error)}
            </div>
          )}
          <button className="p-primary" type="submit" disabled={busy} data-testid="phone-submit">
            {busy ? t('login.connecting') : t('login.submit')}
          </button>
        </form>
        <p className="p-muted p-small">{t('login.hint')}</p>
        <LanguagePicker />
      </div>
    </div>
  );
}
