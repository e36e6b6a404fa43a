import { theme as antdTheme } from 'antd';
import { buildTheme } from '../theme';
import { contrast, readable } from '../contrast';
import type { PrimaryColor, Theme } from '../settings';
import type { CSSProperties } from 'react';

// The login page paints without the UI kit's components and their CSS-in-JS runtime (issue 32: /login usable in
// 0.8 s), in the kit's colours all the same: the shared theme (skin, primary colour, the host's colour, each text
// made readable, shared/theme.ts) derived into antd's design tokens, handed to signin.css as CSS variables. Shared:
// the theme page's preview paints the sign-in box with the same markup, style sheet and colours.

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

/** The variables of the sign-in box's texts (made readable on the box) and of its inputs (their own background). */
const FRAME_TEXTS = ['--login-text', '--login-heading', '--login-text-secondary', '--login-link', '--login-link-hover', '--login-error-text'];
const FRAME_INPUTS = ['--login-bg', '--login-bg-disabled', '--login-text-disabled', '--login-placeholder', '--login-border'];

/**
 * The sign-in box's own variables when a host's theme paints it (loginFrameColor): the texts and inputs of the skin
 * whose background the box is nearest, light on a light box and dark on a dark one, each text colour then made
 * readable on the box itself (a mid-grey box suits neither skin). The button keeps the page's primary colour, the
 * host's. Issue 33: a theme of only a name and a colour saves a white box, and in the dark skin its title and labels
 * stayed white on it.
 */
export function frameLook(frameColour: string, primary: PrimaryColor, brandColour?: string): Record<string, string> {
  const light = contrast('#000000', frameColour) >= contrast('#ffffff', frameColour);
  const skin = loginLook(light ? 'light' : 'dark', primary, brandColour);
  const look: Record<string, string> = {};
  for (const v of FRAME_INPUTS) look[v] = skin[v]!;
  for (const v of FRAME_TEXTS) look[v] = readable(skin[v]!, [frameColour]);
  return look;
}

/** What a host's theme sets of the sign-in box (the branding record's or the theme page's form fields). */
export interface BoxTheme {
  themeColor?: string;
  subThemeColor?: string;
  weightThemeColor?: string;
  loginFrameColor?: string;
}

/**
 * The sign-in box's colours under a host's theme: the page's variables, the box's style, its title's and copyright's
 * colours. The login page and the theme page's preview both paint with these, so the preview is what the host shows.
 */
export function signInBox(skin: Theme, primary: PrimaryColor, theme?: BoxTheme) {
  const brand = theme?.themeColor || undefined;
  const page = loginLook(skin, primary, brand);
  const background = theme?.loginFrameColor || page['--login-bg']!;
  const frame: CSSProperties = {
    ...(theme?.loginFrameColor ? frameLook(background, primary, brand) : {}),
    background,
    borderTop: theme?.subThemeColor ? `4px solid ${theme.subThemeColor}` : undefined,
  };
  return {
    page,
    frame,
    // The theme's emphasis colour on the title, made readable on the box (ADR 0021); else the box's heading colour.
    title: theme?.weightThemeColor ? readable(theme.weightThemeColor, [background]) : undefined,
    copyright: readable(page['--login-text-secondary']!, [background]),
  };
}
