import { generate } from '@ant-design/colors';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { AA_TEXT, contrast, mix, readable } from './contrast';
import { PRIMARY_HEX, type PrimaryColor, type Theme } from './settings';
import { FONT_FAMILY } from './fonts/family';

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

/** The backgrounds text is shown on in a skin: the layout, containers and popups. */
export function skinBackgrounds(t: Pick<Derived, 'colorBgLayout' | 'colorBgContainer' | 'colorBgElevated'>): string[] {
  return [t.colorBgContainer, t.colorBgLayout, t.colorBgElevated];
}

/**
 * The colour antd paints for a colour seed (colorPrimary, colorError, colorLink): its palette's sixth shade, the
 * seed itself on light skins, blended towards the background on dark ones (antd's dark algorithm). Computed here
 * with the palette generator antd uses, because deriving a whole token set costs tens of milliseconds.
 */
function painted(dark: boolean, seed: string): string {
  return generate(seed, dark ? { theme: 'dark' } : undefined)[5]!;
}

/** The seed nearest to `seed`, mixed towards black or white, whose painted colour passes `ok` (bisection). */
function seedFor(dark: boolean, seed: string, towards: string, ok: (painted: string) => boolean): string {
  if (ok(painted(dark, seed))) return seed;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 10; i++) {
    const mid = (lo + hi) / 2;
    if (ok(painted(dark, mix(seed, towards, mid)))) hi = mid;
    else lo = mid;
  }
  return mix(seed, towards, hi);
}

const whiteReads = (c: string) => contrast('#ffffff', c) >= AA_TEXT;

const cache = new Map<string, ThemeConfig>();

export function buildTheme(skin: Theme, primary: PrimaryColor, brandColour?: string): ThemeConfig {
  const seed = primaryHex(primary, brandColour);
  const key = `${skin}|${seed}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const s = SKINS[skin];
  const algorithm = s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm;
  // Primary and danger buttons carry white text: their colours deepen until it reads.
  const seeds = { colorPrimary: seedFor(s.dark, seed, '#000000', whiteReads), colorError: seedFor(s.dark, antdTheme.defaultSeed.colorError, '#000000', whiteReads) };
  // One derivation gives the backgrounds and the text colours as antd would paint them.
  const derived = antdTheme.getDesignToken({ algorithm, token: { ...s.token, ...seeds } });
  const bgs = skinBackgrounds(derived);
  const reads = (c: string) => bgs.every((bg) => contrast(c, bg) >= AA_TEXT);
  const text: Record<string, string> = {};
  for (const k of TEXT_TOKENS) if (!reads(derived[k])) text[k] = readable(derived[k], bgs);
  // The link colour is a seed the algorithm transforms as well; the others are taken as given.
  if (text.colorLink) text.colorLink = seedFor(s.dark, derived.colorLink, s.dark ? '#ffffff' : '#000000', reads);
  // Tabs paint the selected tab's label in the primary colour, a background colour: the readable one instead.
  const primaryText = text.colorPrimaryText ?? derived.colorPrimaryText;
  const config: ThemeConfig = {
    algorithm,
    token: { ...s.token, ...seeds, ...text, fontSize: ROOT_FONT_PX, borderRadius: 6, fontFamily: FONT_FAMILY },
    components: { Tree: { titleHeight: 28 }, Tabs: { itemSelectedColor: primaryText, itemActiveColor: primaryText, itemHoverColor: primaryText } },
    cssVar: { key: 'tenfour' },
  };
  cache.set(key, config);
  return config;
}
