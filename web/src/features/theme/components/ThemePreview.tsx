// The live preview of a theme: the host's login page and its console header, painted with the same corrected
// colours the real ones use (shared/branding/skin.ts, shared/theme.ts), so what is seen here is what the host shows.
import { useTranslation } from 'react-i18next';
import { Button, ConfigProvider, Typography } from 'antd';
import { AudioOutlined } from '@ant-design/icons';
import { skinColours } from '../../../shared/branding/skin';
import { readable } from '../../../shared/contrast';
import { buildTheme } from '../../../shared/theme';
import { useSettings } from '../../../shared/settings';
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
  const frameBg = theme.loginFrameColor || '#ffffff';
  const c = skinColours(theme, frameBg);
  const name = theme.sysName || t('preview.defaultName');
  return (
    <div className="theme-preview" data-testid="theme-preview">
      <Typography.Text strong>{t('preview.login')}</Typography.Text>
      <div className="theme-preview-login">
        <div className="theme-preview-frame" style={{ background: frameBg, borderTop: theme.subThemeColor ? `4px solid ${theme.subThemeColor}` : undefined }} data-testid="preview-frame">
          {theme.logoUrl && <img className="theme-preview-logo" src={theme.logoUrl} alt="" data-testid="preview-logo" />}
          <div className="theme-preview-title" style={{ color: c.weightText ?? readable('#1f1f1f', [frameBg]) }} data-testid="preview-title">
            {name}
          </div>
          <ConfigProvider theme={buildTheme(skin, primary, theme.themeColor || undefined)}>
            <Button type="primary" block data-testid="preview-button">
              {t('preview.signIn')}
            </Button>
          </ConfigProvider>
          {theme.copyright && <div className="theme-preview-copyright" style={{ color: readable('#595959', [frameBg]) }}>{theme.copyright}</div>}
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
