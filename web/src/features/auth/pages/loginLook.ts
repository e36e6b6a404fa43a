import { theme as antdTheme } from 'antd';
import { buildTheme } from '../../../shared/theme';
import type { PrimaryColor, Theme } from '../../../shared/settings';

// The login page paints without the UI kit's components and their CSS-in-JS runtime (issue 32: /login usable in
// 0.8 s), in the kit's colours all the same: the shared theme (skin, primary colour, the host's colour, each text
// made readable, shared/theme.ts) derived into antd's design tokens, handed to login.css as CSS variables.

const cache = new Map<string, Record<string, string>>();

/** The CSS variables of login.css for a skin, a primary colour and the host's theme colour. */
export function loginLook(skin: Theme, primary: PrimaryColor, brandColour?: string): Record<string, string> {
  const key = `${skin}|${primary}|${brandColour ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const t = antdTheme.getDesignToken(buildTheme(skin, primary, brandColour));
  const look = {
    '--login-primary': t.colorPrimary,
    '--login-primary-hover': t.colorPrimaryHover,
    '--login-primary-active': t.colorPrimaryActive,
    '--login-on-primary': t.colorTextLightSolid,
    '--login-link': t.colorLink,
    '--login-link-hover': t.colorLinkHover,
    '--login-bg': t.colorBgContainer,
    '--login-bg-disabled': t.colorBgContainerDisabled,
    '--login-text': t.colorText,
    '--login-text-secondary': t.colorTextDescription,
    '--login-text-disabled': t.colorTextDisabled,
    '--login-placeholder': t.colorTextPlaceholder,
    '--login-heading': t.colorTextHeading,
    '--login-border': t.colorBorder,
    '--login-error': t.colorError,
    '--login-error-text': t.colorErrorText,
    '--login-error-bg': t.colorErrorBg,
    '--login-error-border': t.colorErrorBorder,
    '--login-warning': t.colorWarning,
    '--login-warning-bg': t.colorWarningBg,
    '--login-warning-border': t.colorWarningBorder,
    '--login-focus': t.colorPrimaryBorder,
    '--login-radius': `${t.borderRadius}px`,
  };
  cache.set(key, look);
  return look;
}
