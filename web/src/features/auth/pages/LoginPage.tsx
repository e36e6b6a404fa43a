import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Form, Input, Select, Typography, theme } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useBranding } from '../../../shared/branding/store';
import { skinColours } from '../../../shared/branding/skin';
import { readable } from '../../../shared/contrast';
import { useSettings } from '../../../shared/settings';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../../i18n/languages';
import { deleteTokenCookie } from '../../../shared/utils/cookies';
import { ForgotPasswordDialog } from '../components/ForgotPasswordDialog';
import { parseAutoLogin } from '../passwordRules';
import { remembered } from '../remember';
import { LoginError, signIn } from '../signIn';
import { landingAfterSignIn } from '../versionReload';
import { clearSignedOut, shownSignedOut, signedOutText, useSignedOut } from '../signedOut';
import { HOME_PATH } from '../../../shared/access/routes';
import './login.css';

interface Values {
  account: string;
  password: string;
  remember: boolean;
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const branding = useBranding((s) => s.branding);
  const clientConfig = useBranding((s) => s.clientConfig);
  const productVersion = useBranding((s) => s.productVersion);
  const language = useSettings((s) => s.language);
  const rememberPassword = useSettings((s) => s.rememberPassword);
  const update = useSettings((s) => s.update);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { token } = theme.useToken();

  const signedOut = useSignedOut((s) => s.notice);
  useEffect(() => {
    if (signedOut) shownSignedOut();
  }, [signedOut]);

  const afterSignIn = () => {
    const version = productVersion ?? clientConfig.version;
    navigate(landingAfterSignIn(HOME_PATH, { search: location.search, hasOpener: !!window.opener, autoLoginKeys: clientConfig.autoLoginKeys, version }), { replace: true });
  };

  const submit = async ({ account, password, remember }: Values) => {
    setBusy(true);
    setError(undefined);
    setAttempt((n) => n + 1);
    try {
      await signIn(account.trim(), password);
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

  useEffect(() => {
    const auto = parseAutoLogin(location.search, clientConfig.autoLoginKeys);
    if (auto) {
      // Auto-login removes the token cookie first (spec §4).
      deleteTokenCookie();
      form.setFieldsValue({ account: auto.account, password: auto.password });
      void submit({ ...auto, remember: false });
      return;
    }
    if (rememberPassword)
      void remembered.load().then((r) => r && form.setFieldsValue({ account: r.account, password: r.password, remember: true }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const errorText = error ? t(`codes.${error}`, { defaultValue: t('codes.other', { code: error }) }) : undefined;
  const sysName = branding?.sysName || clientConfig.title || t('app:productName');
  const frameBg = branding?.loginFrameColor || token.colorBgContainer;
  // The theme's emphasis colour on the title, made readable on the frame (ADR 0021).
  const titleColour = skinColours(branding, frameBg).weightText;

  return (
    <div
      className="login-page"
      data-testid="login-page"
      style={branding?.logoPageBg ? { backgroundImage: /^(#|rgb|hsl)/.test(branding.logoPageBg) ? undefined : `url("${branding.logoPageBg}")`, backgroundColor: /^(#|rgb|hsl)/.test(branding.logoPageBg) ? branding.logoPageBg : undefined } : undefined}
    >
      <div className="login-lang">
        <Select
          size="small"
          value={language}
          onChange={(v: Language) => update({ language: v })}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          style={{ width: 120 }}
          aria-label={t('app:language')}
          data-testid="login-lang"
        />
      </div>
      <div className="login-frame" data-testid="login-frame" style={{ background: frameBg, borderTop: branding?.subThemeColor ? `4px solid ${branding.subThemeColor}` : undefined }}>
        <div className="login-head">
          {branding?.logoUrl || clientConfig.logo ? <img className="login-logo" src={branding?.logoUrl || clientConfig.logo} alt="" data-testid="login-logo" /> : null}
          <Typography.Title level={3} className="login-title" data-testid="login-title" style={titleColour ? { color: titleColour } : undefined}>
            {sysName}
          </Typography.Title>
          <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
        </div>
        {errorText && <Alert type="error" showIcon message={errorText} className="login-error" data-testid="login-error" data-code={error} data-attempt={attempt} />}
        {signedOut && !errorText && (
          <Alert type="warning" showIcon message={signedOutText(t, signedOut, language)} className="login-error" data-testid="login-signed-out" data-reason={signedOut.reason} />
        )}
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ remember: rememberPassword }} requiredMark={false} disabled={busy}>
          <Form.Item name="account" label={t('account')} rules={[{ required: true, whitespace: true, message: t('accountRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" placeholder={t('accountPlaceholder')} data-testid="login-account" />
          </Form.Item>
          <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('passwordPlaceholder')} data-testid="login-password" />
          </Form.Item>
          <div className="login-row">
            <Form.Item name="remember" valuePropName="checked" noStyle>
              <Checkbox data-testid="login-remember">{t('remember')}</Checkbox>
            </Form.Item>
            <Button type="link" onClick={() => setForgotOpen(true)} data-testid="forgot-link">
              {t('forgot')}
            </Button>
          </div>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('submit')}
          </Button>
        </Form>
        {branding?.copyright && (
          <Typography.Text className="login-copyright" data-testid="login-copyright" style={{ color: readable(token.colorTextDescription, [frameBg]) }}>
            {branding.copyright}
          </Typography.Text>
        )}
      </div>
      <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} initialAccount={form.getFieldValue('account') as string | undefined} />
    </div>
  );
}
