import { theme as antdTheme, type ThemeConfig } from 'antd';
import { AA_TEXT, contrast, readable } from './contrast';
import { PRIMARY_HEX, type PrimaryColor, type Theme } from './settings';

// Skins of spec §9 (dark, light, moon silver, phantom black) on antd's token system. The host's branding colour,
// when set, replaces the chosen primary colour (primary colour mode 'customize' instead of 'init').
//
// Every skin and primary colour meets WCAG AA for text (4.5:1; tests/e2e/contrast.mjs measures the screens,
// theme.test.ts the token pairs): the primary colour is darkened until white text on it (buttons, the selected
// menu item) reads, and the text colours antd derives (secondary and description text, links, primary-coloured
// and status texts) are moved towards black or white until they read on the skin's backgrounds.
export const ROOT_FONT_PX = 14;

/** The console's header bar (app/shell.css `.shell-header`), the same in every skin: white text on it. */
export const HEADER_BG = '#001529';

const SKINS: Record<Theme, { dark: boolean; token: ThemeConfig['token'] }> = {
  light: { dark: false, token: { colorBgLayout: '#f3f5f8' } },
  dark: { dark: true, token: { colorBgLayout: '#0f151c', colorBgContainer: '#18212b', colorBgElevated: '#1e2935' } },
  moonSilver: { dark: false, token: { colorBgLayout: '#dfe3e8', colorBgContainer: '#eef1f4', colorBorder: '#c5ccd4', colorText: '#1f2933' } },
  phantomBlack: { dark: true, token: { colorBgLayout: '#000000', colorBgContainer: '#0b0b0d', colorBgElevated: '#141416', colorBorder: '#2a2a2e' } },
};

/** Text tokens made readable on the skin's backgrounds. */
export const TEXT_TOKENS = [
  'colorText',
  'colorTextSecondary',
  'colorTextTertiary',
  'colorTextDescription',
  'colorTextPlaceholder',
  'colorTextHeading',
  'colorTextLabel',
  'colorLink',
  'colorLinkHover',
  'colorLinkActive',
  'colorPrimaryText',
  'colorPrimaryTextHover',
  'colorPrimaryTextActive',
  'colorErrorText',
  'colorErrorTextHover',
  'colorErrorTextActive',
  'colorWarningText',
  'colorSuccessText',
  'colorInfoText',
] as const;

export function isDarkSkin(t: Theme): boolean {
  return SKINS[t].dark;
}

export function primaryHex(primary: PrimaryColor, brandColour?: string): string {
  return brandColour || PRIMARY_HEX[primary];
}

type Derived = ReturnType<typeof antdTheme.getDesignToken>;

const derive = (skin: Theme, token: ThemeConfig['token']): Derived =>
  antdTheme.getDesignToken({ algorithm: SKINS[skin].dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm, token: { ...SKINS[skin].token, ...token } });

/** The backgrounds text is shown on in a skin: the layout, containers and popups. */
export function skinBackgrounds(t: Pick<Derived, 'colorBgLayout' | 'colorBgContainer' | 'colorBgElevated'>): string[] {
  return [t.colorBgContainer, t.colorBgLayout, t.colorBgElevated];
}

type Solid = 'colorPrimary' | 'colorError';

/** The seed nearest to `seed` whose derived colour carries white text at AA (primary and danger buttons). */
function solidSeed(skin: Theme, key: Solid, seed: string): string {
  let s = seed;
  for (let i = 0; i < 24 && contrast('#ffffff', derive(skin, { [key]: s })[key]) < AA_TEXT; i++) s = readable(s, ['#ffffff'], contrast('#ffffff', s) + 0.25);
  return s;
}

const worst = (c: string, bgs: string[]) => Math.min(...bgs.map((bg) => contrast(c, bg)));

/**
 * Text tokens that read on every background of the skin. Some are seeds the algorithm transforms (colorLink), so
 * each round moves a failing token's value further and derives again.
 */
function textTokens(skin: Theme, seeds: ThemeConfig['token']): Record<string, string> {
  const out: Record<string, string> = {};
  for (let round = 0; round < 16; round++) {
    const d = derive(skin, { ...seeds, ...out });
    const bgs = skinBackgrounds(d);
    const failing = TEXT_TOKENS.filter((k) => worst(d[k], bgs) < AA_TEXT);
    if (!failing.length) break;
    for (const k of failing) {
      const cur = out[k] ?? d[k];
      out[k] = readable(cur, bgs, Math.min(21, Math.max(AA_TEXT, worst(cur, bgs)) + 0.35));
    }
  }
  return out;
}

const cache = new Map<string, ThemeConfig>();

export function buildTheme(skin: Theme, primary: PrimaryColor, brandColour?: string): ThemeConfig {
  const seed = primaryHex(primary, brandColour);
  const key = `${skin}|${seed}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const s = SKINS[skin];
  const base = derive(skin, {});
  const seeds = { colorPrimary: solidSeed(skin, 'colorPrimary', seed), colorError: solidSeed(skin, 'colorError', base.colorError) };
  const text = textTokens(skin, seeds);
  // Tabs paint the selected tab's label in the primary colour, a background colour: the readable one instead.
  const primaryText = text.colorPrimaryText ?? derive(skin, seeds).colorPrimaryText;
  const config: ThemeConfig = {
    algorithm: s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { ...s.token, ...seeds, ...text, fontSize: ROOT_FONT_PX, borderRadius: 6 },
    components: { Tree: { titleHeight: 28 }, Tabs: { itemSelectedColor: primaryText, itemActiveColor: primaryText, itemHoverColor: primaryText } },
    cssVar: { key: 'tenfour' },
  };
  cache.set(key, config);
  return config;
}
