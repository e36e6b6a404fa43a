import { theme as antdTheme, type ThemeConfig } from 'antd';
import { PRIMARY_HEX, type PrimaryColor, type Theme } from './settings';

// Skins of spec §9 (dark, light, moon silver, phantom black) on antd's token system. The host's branding colour,
// when set, replaces the chosen primary colour (primary colour mode 'customize' instead of 'init').
export const ROOT_FONT_PX = 14;

const SKINS: Record<Theme, { dark: boolean; token: ThemeConfig['token'] }> = {
  light: { dark: false, token: { colorBgLayout: '#f3f5f8' } },
  dark: { dark: true, token: { colorBgLayout: '#0f151c', colorBgContainer: '#18212b', colorBgElevated: '#1e2935' } },
  moonSilver: { dark: false, token: { colorBgLayout: '#dfe3e8', colorBgContainer: '#eef1f4', colorBorder: '#c5ccd4', colorText: '#1f2933' } },
  phantomBlack: { dark: true, token: { colorBgLayout: '#000000', colorBgContainer: '#0b0b0d', colorBgElevated: '#141416', colorBorder: '#2a2a2e' } },
};

export function isDarkSkin(t: Theme): boolean {
  return SKINS[t].dark;
}

export function primaryHex(primary: PrimaryColor, brandColour?: string): string {
  return brandColour || PRIMARY_HEX[primary];
}

export function buildTheme(skin: Theme, primary: PrimaryColor, brandColour?: string): ThemeConfig {
  const s = SKINS[skin];
  return {
    algorithm: s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { ...s.token, colorPrimary: primaryHex(primary, brandColour), fontSize: ROOT_FONT_PX, borderRadius: 6 },
    components: { Tree: { titleHeight: 28 } },
    cssVar: { key: 'tenfour' },
  };
}
