import { useEffect, useId, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import { useBranding } from '../../../shared/branding/store';
import { useSettings } from '../../../shared/settings';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../../i18n/languages';
import { deleteTokenCookie } from '../../../shared/utils/cookies';
import { parseAutoLogin, recoveryErrorKey } from '../passwordRules';
import { authApi, type OAuthProvider } from '../api';
import { ApiError } from '../../../shared/http/client';
import { remembered } from '../remember';
import { browserNav, LoginError, signIn, signInOAuth } from '../signIn';
import { landingAfterSignIn } from '../versionReload';
import { clearSignedOut, shownSignedOut, signedOutText, useSignedOut } from '../signedOut';
import { HOME_PATH } from '../../../shared/access/routes';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { Icon } from '../../../shared/icons/Icon';
import { signInBox } from '../../../shared/signin/look';
import '../../../shared/signin/signin.css';

interface Values {
  account: string;
  password: string;
  remember: boolean;
  /** The e-mail code of a code sign-in (loginext flag=1). */
  code: string;
}

type Field = 'account' | 'password' | 'code';

/** The forgot-password dialog, which runs in the UI kit: the router hands it in, loaded when first opened. */
export type ForgotDialog = ComponentType<{ open: boolean; onClose: () => void; initialAccount?: string }>;


/** The sign-in notices (a refusal, the signed-out reason): antd's alert look, as a live region. */
function Notice({ kind, children, ...data }: { kind: 'error' | 'warning'; children: ReactNode } & Record<`data-${string}`, string | number | undefined>) {
  return (
    <div role="alert" className={`login-alert login-alert-${kind} login-error`} {...data}>
      <Icon def={kind === 'error' ? CloseCircleFilled : ExclamationCircleFilled} className="login-alert-icon" />
      <span>{children}</span>
    </div>
  );
}

/** The required fields' checks of the form (a blank account counts as none; a code sign-in needs its 6 digits). */
function missing(v: Values, withCode: boolean): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  if (!v.account.trim()) out.account = 'accountRequired';
  if (!v.password) out.password = 'passwordRequired';
  if (withCode && !/^\d{6}$/.test(v.code.trim())) out.code = 'codeSignIn.codeRequired';
  return out;
}

export default function LoginPage({ ForgotDialog }: { ForgotDialog: ForgotDialog }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const id = useId();
  const { branding, clientConfig, productVersion } = useBranding(useShallow((s) => ({ branding: s.branding, clientConfig: s.clientConfig, productVersion: s.productVersion })));
  const { language, theme: skin, primaryColor: primary, rememberPassword, update } = useSettings(
    useShallow((s) => ({ language: s.language, theme: s.theme, primaryColor: s.primaryColor, rememberPassword: s.rememberPassword, update: s.update })),
  );
  const [values, setValues] = useState<Values>({ account: '', password: '', remember: rememberPassword, code: '' });
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [checked, setChecked] = useState(false); // after the first submit the fields are checked as they change
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [forgotShown, setForgotShown] = useState(false);
  // E-mail code sign-in (docs/api.md loginext flag=1): the password and a code mailed to the account's address.
  const [withCode, setWithCode] = useState(false);
  const [codeNote, setCodeNote] = useState<{ ok: boolean; key: string }>();
  const [sending, setSending] = useState(false);
  // OAuth sign-in where the host configures providers (docs/api.md "OAuth sign-in").
  const [providers, setProviders] = useState<OAuthProvider[]>([]);
  const box = signInBox(skin, primary, branding ?? undefined);

  const signedOut = useSignedOut((s) => s.notice);
  useEffect(() => {
    if (signedOut) shownSignedOut();
  }, [signedOut]);

  const afterSignIn = () => {
    const version = productVersion ?? clientConfig.version;
    navigate(landingAfterSignIn(HOME_PATH, { search: location.search, hasOpener: !!window.opener, autoLoginKeys: clientConfig.autoLoginKeys, version }), { replace: true });
  };

  const submit = async ({ account, password, remember, code }: Values, emailCode = false) => {
    setBusy(true);
    setError(undefined);
    setAttempt((n) => n + 1);
    try {
      if (emailCode) await signIn(account.trim(), password, code.trim());
      else await signIn(account.trim(), password);
      clearSignedOut();
      update({ rememberPassword: remember });
      if (remember) await remembered.save(account.trim(), password);
      else remembered.forget();
      afterSignIn();
    } catch (e) {
      setError(e instanceof LoginError ? e.code : '503');
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const bad = missing(values, withCode);
    setInvalid(bad);
    setChecked(true);
    const first = (['account', 'password', 'code'] as const).find((f) => bad[f]);
    if (first) document.getElementById(`${id}-${first}`)?.focus();
    else void submit(values, withCode);
  };

  const change = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (checked) setInvalid(missing(next, withCode));
  };

  /** Switches between a password sign-in and one with an e-mail code; the checks start over. */
  const toggleCode = () => {
    setWithCode((w) => !w);
    setInvalid({});
    setCodeNote(undefined);
  };

  /** Mails a sign-in code to the account's bound address (getVerifyCode type=login; 104: none bound). */
  const sendCode = async () => {
    const account = values.account.trim();
    if (!account) {
      setInvalid({ ...invalid, account: 'codeSignIn.accountFirst' });
      document.getElementById(`${id}-account`)?.focus();
      return;
    }
    setSending(true);
    setCodeNote(undefined);
    try {
      await authApi.getVerifyCode({ uid: account, email: '', type: 'login', lang: language });
      setCodeNote({ ok: true, key: 'codeSignIn.sent' });
    } catch (e) {
      setCodeNote({ ok: false, key: recoveryErrorKey(e instanceof ApiError ? e.code : '') });
    } finally {
      setSending(false);
    }
  };

  /** A provider's button: off to its authorization page, with the state the server gave this browser. */
  const startOAuth = async (platform: string) => {
    setBusy(true);
    setError(undefined);
    try {
      browserNav.go((await authApi.oauthStart(platform)).url);
    } catch (e) {
      setError(e instanceof ApiError ? e.code : '503');
      setBusy(false);
    }
  };

  /** Back from the provider (/login?platform=…&code=…&state=…): the code for a session; the address loses them. */
  const finishOAuth = async (platform: string, code: string, state: string) => {
    history.replaceState(history.state, '', location.pathname);
    setBusy(true);
    setAttempt((n) => n + 1);
    try {
      await signInOAuth(platform, code, state);
      clearSignedOut();
      afterSignIn();
    } catch (e) {
      setError(e instanceof LoginError ? e.code : '503');
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    authApi.oauthProviders().then((p) => setProviders(Array.isArray(p) ? p : []), () => setProviders([]));
    const back = new URLSearchParams(location.search);
    const [platform, code, state] = ['platform', 'code', 'state'].map((k) => back.get(k) ?? '');
    if (platform && code) {
      void finishOAuth(platform, code, state);
      return;
    }
    const auto = parseAutoLogin(location.search, clientConfig.autoLoginKeys);
    if (auto) {
      // Auto-login removes the token cookie first (spec §4).
      deleteTokenCookie();
      setValues({ account: auto.account, password: auto.password, remember: false, code: '' });
      void submit({ ...auto, remember: false, code: '' });
      return;
    }
    if (rememberPassword) void remembered.load().then((r) => r && setValues({ account: r.account, password: r.password, remember: true, code: '' }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const errorText = error ? t(`codes.${error}`, { defaultValue: t('codes.other', { code: error }) }) : undefined;
  const sysName = branding?.sysName || clientConfig.title || t('app:productName');
  const pageBg = branding?.logoPageBg;
  const plainColour = !!pageBg && /^(#|rgb|hsl)/.test(pageBg);

  const field = (name: Field, label: string, icon: IconDefinition, input: ReactNode, suffix?: ReactNode) => (
    <div className="login-field">
      <label className="login-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <span className={`login-input${invalid[name] ? ' login-input-invalid' : ''}`}>
        <Icon def={icon} className="login-input-icon" />
        {input}
        {suffix}
      </span>
      {invalid[name] && (
        <div className="login-explain" id={`${id}-${name}-explain`} role="alert">
          {t(invalid[name])}
        </div>
      )}
    </div>
  );
  const aria = (name: Field) => ({ id: `${id}-${name}`, 'aria-invalid': !!invalid[name], 'aria-describedby': invalid[name] ? `${id}-${name}-explain` : undefined });

  return (
    <div
      className="login-page"
      data-testid="login-page"
      style={{ ...box.page, ...(pageBg ? { backgroundImage: plainColour ? undefined : `url("${pageBg}")`, backgroundColor: plainColour ? pageBg : undefined } : {}) }}
    >
      <div className="login-lang">
        <select className="login-select" value={language} onChange={(e) => update({ language: e.target.value as Language })} aria-label={t('app:language')} data-testid="login-lang">
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <div className="login-frame" data-testid="login-frame" style={box.frame}>
        <div className="login-head">
          {branding?.logoUrl || clientConfig.logo ? <img className="login-logo" src={branding?.logoUrl || clientConfig.logo} alt="" data-testid="login-logo" /> : null}
          <h3 className="login-title" data-testid="login-title" style={box.title ? { color: box.title } : undefined}>
            {sysName}
          </h3>
          <span className="login-subtitle">{t('subtitle')}</span>
        </div>
        {errorText && (
          <Notice kind="error" data-testid="login-error" data-code={error} data-attempt={attempt}>
            {errorText}
          </Notice>
        )}
        {signedOut && !errorText && (
          <Notice kind="warning" data-testid="login-signed-out" data-reason={signedOut.reason}>
            {signedOutText(t, signedOut, language)}
          </Notice>
        )}
        <form onSubmit={onSubmit} noValidate>
          <fieldset className="login-fields" disabled={busy}>
            {field(
              'account',
              t('account'),
              UserOutlined,
              <input {...aria('account')} value={values.account} onChange={(e) => change({ account: e.target.value })} autoComplete="username" placeholder={t('accountPlaceholder')} data-testid="login-account" />,
            )}
            {field(
              'password',
              t('password'),
              LockOutlined,
              <input
                {...aria('password')}
                type={showPassword ? 'text' : 'password'}
                value={values.password}
                onChange={(e) => change({ password: e.target.value })}
                autoComplete="current-password"
                placeholder={t('passwordPlaceholder')}
                data-testid="login-password"
              />,
              <button type="button" className="login-eye" onClick={() => setShowPassword((s) => !s)} aria-pressed={showPassword} aria-label={t('showPassword')}>
                <Icon def={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
              </button>,
            )}
            {withCode && (
              <div className="login-field">
                <label className="login-label" htmlFor={`${id}-code`}>
                  {t('codeSignIn.code')}
                </label>
                <div className="login-code">
                  <span className={`login-input${invalid.code ? ' login-input-invalid' : ''}`}>
                    <Icon def={MailOutlined} className="login-input-icon" />
                    <input
                      {...aria('code')}
                      value={values.code}
                      onChange={(e) => change({ code: e.target.value })}
                      inputMode="numeric"
                      maxLength={6}
                      autoComplete="one-time-code"
                      placeholder={t('codeSignIn.codePlaceholder')}
                      data-testid="login-code"
                    />
                  </span>
                  <button type="button" className="login-send" onClick={sendCode} aria-busy={sending} data-testid="login-send-code">
                    {t('codeSignIn.send')}
                  </button>
                </div>
                {invalid.code ? (
                  <div className="login-explain" id={`${id}-code-explain`} role="alert">
                    {t(invalid.code)}
                  </div>
                ) : codeNote ? (
                  <div className={codeNote.ok ? 'login-hint' : 'login-explain'} role="status" data-testid="login-code-note" data-ok={codeNote.ok}>
                    {t(codeNote.key)}
                  </div>
                ) : null}
              </div>
            )}
            <div className="login-row">
              <label className="login-check">
                <input type="checkbox" checked={values.remember} onChange={(e) => change({ remember: e.target.checked })} data-testid="login-remember" />
                <span>{t('remember')}</span>
              </label>
              <button
                type="button"
                className="login-link"
                onClick={() => {
                  setForgotShown(true);
                  setForgotOpen(true);
                }}
                data-testid="forgot-link"
              >
                {t('forgot')}
              </button>
            </div>
            <button type="submit" className="login-submit" data-testid="login-submit" aria-busy={busy}>
              {busy && <span className="login-spinner" aria-hidden="true" />}
              <span>{t('submit')}</span>
            </button>
            <button type="button" className="login-link login-other" onClick={toggleCode} aria-pressed={withCode} data-testid="login-code-toggle">
              {t(withCode ? 'codeSignIn.back' : 'codeSignIn.toggle')}
            </button>
            {providers.length > 0 && (
              <div className="login-oauth" data-testid="login-oauth">
                {providers.map((p) => (
                  <button key={p.platform} type="button" className="login-send" onClick={() => void startOAuth(p.platform)} data-testid="login-oauth-button" data-platform={p.platform}>
                    {t('oauth.with', { name: p.name })}
                  </button>
                ))}
              </div>
            )}
          </fieldset>
        </form>
        {branding?.copyright && (
          <span className="login-copyright" data-testid="login-copyright" style={{ color: box.copyright }}>
            {branding.copyright}
          </span>
        )}
      </div>
      {forgotShown && <ForgotDialog open={forgotOpen} onClose={() => setForgotOpen(false)} initialAccount={values.account || undefined} />}
    </div>
  );
}
