// The live preview of a theme: the host's sign-in box and its console header. The box is the login page's own
// markup, style sheet and colours (shared/signin), the header the console's corrected colours
// (shared/branding/skin.ts), so what is seen here is what the host shows (issue 33: the preview's own look drew a
// dark title on a white box while the login page in the dark skin drew a white one).
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { AudioOutlined } from '@ant-design/icons';
import { skinColours } from '../../../shared/branding/skin';
import { useSettings } from '../../../shared/settings';
import { signInBox } from '../../../shared/signin/look';
import '../../../shared/signin/signin.css';
import type { Theme } from '../api';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The theme with every colour that is not (yet) a whole #rgb/#rrggbb value left out: typing one is a moment. */
export function previewable(t: Theme): Theme {
  const c = (v: string) => (HEX.test(v) ? v : '');
  return { ...t, themeColor: c(t.themeColor), tabColor: c(t.tabColor), subThemeColor: c(t.subThemeColor), weightThemeColor: c(t.weightThemeColor), callingColor: c(t.callingColor), loginFrameColor: c(t.loginFrameColor) };
}

export function ThemePreview({ theme: raw }: { theme: Theme }) {
  const theme = previewable(raw);
  const { t } = useTranslation('theme');
  const skin = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const box = signInBox(skin, primary, theme);
  const c = skinColours(theme);
  const name = theme.sysName || t('preview.defaultName');
  const field = (label: string, placeholder: string) => (
    <div className="login-field">
      <span className="login-label">{label}</span>
      <span className="login-input">
        <input readOnly tabIndex={-1} placeholder={placeholder} aria-label={label} />
      </span>
    </div>
  );
  return (
    <div className="theme-preview" data-testid="theme-preview">
      <Typography.Text strong>{t('preview.login')}</Typography.Text>
      <div className="theme-preview-login" style={box.page}>
        <div className="login-frame theme-preview-frame" style={box.frame} data-testid="preview-frame" inert>
          <div className="login-head">
            {theme.logoUrl && <img className="login-logo" src={theme.logoUrl} alt="" data-testid="preview-logo" />}
            <h3 className="login-title" style={box.title ? { color: box.title } : undefined} data-testid="preview-title">
              {name}
            </h3>
            <span className="login-subtitle">{t('auth:subtitle')}</span>
          </div>
          {field(t('auth:account'), t('auth:accountPlaceholder'))}
          {field(t('auth:password'), t('auth:passwordPlaceholder'))}
          <button type="button" className="login-submit" tabIndex={-1} data-testid="preview-button">
            {t('auth:submit')}
          </button>
          {theme.copyright && (
            <span className="login-copyright" style={{ color: box.copyright }}>
              {theme.copyright}
            </span>
          )}
        </div>
      </div>
      <Typography.Text strong>{t('preview.console')}</Typography.Text>
      <div className="theme-preview-header" style={{ background: c.tabBg, boxShadow: `inset 0 -3px 0 ${c.subTheme}` }} data-testid="preview-header">
        {theme.miniLogoUrl && <img className="theme-preview-mini" src={theme.miniLogoUrl} alt="" data-testid="preview-mini-logo" />}
        <span className="theme-preview-brand">{name}</span>
        <span className="theme-preview-tab">{t('preview.tabDispatch')}</span>
        <span className="theme-preview-tab">{t('preview.tabMap')}</span>
        <span className="theme-preview-calling" style={{ background: c.callingBg }} data-testid="preview-calling">
          <AudioOutlined /> {t('preview.calling')}
        </span>
      </div>
    </div>
  );
}
