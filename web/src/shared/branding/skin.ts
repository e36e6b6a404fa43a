// The custom theme's colours as the console paints them (spec §3 skin; ADR 0021, ADR 0015): every colour a host's
// theme sets is corrected here so the text on or in it stays readable (WCAG AA 4.5:1), whatever was chosen.
import { AA_TEXT, contrast, mix, readable } from '../contrast';
import { HEADER_BG } from '../theme';
import type { Branding } from './store';

/** spec §3 "tabColor default dark teal" (the server stores it for a theme without one). */
export const DEFAULT_TAB_COLOR = '#00474f';
/** The talking/calling colour of the console without a theme (shared/voice/voice.css). */
export const DEFAULT_CALLING_COLOR = '#cf1322';

/** `c` darkened step by step until white text on it reads (buttons, the header bar, the calling badge). */
export function forWhiteText(c: string): string {
  if (contrast('#ffffff', c) >= AA_TEXT) return c;
  for (let i = 1; i <= 64; i++) {
    const d = mix(c, '#000000', i / 64);
    if (contrast('#ffffff', d) >= AA_TEXT) return d;
  }
  return '#000000';
}

export interface SkinColours {
  /** The header (main tab) bar: white text on it. */
  tabBg: string;
  /** A call in progress (the talking PTT button, the talking row): white text on it. */
  callingBg: string;
  /** The secondary colour: an accent line under the header and above the login frame (decoration, no text). */
  subTheme: string;
  /** The emphasis colour as text: the login title, read on the login frame. */
  weightText?: string;
}

/** The corrected colours of a host's theme; frameBg is the login frame's background (the text's background). */
export function skinColours(b: Pick<Branding, 'tabColor' | 'callingColor' | 'subThemeColor' | 'weightThemeColor'> | null, frameBg = '#ffffff'): SkinColours {
  return {
    tabBg: b?.tabColor ? forWhiteText(b.tabColor) : HEADER_BG,
    callingBg: forWhiteText(b?.callingColor || DEFAULT_CALLING_COLOR),
    subTheme: b?.subThemeColor || 'transparent',
    weightText: b?.weightThemeColor ? readable(b.weightThemeColor, [frameBg]) : undefined,
  };
}

/** The CSS custom properties the shell and the voice styles read (app/shell.css, shared/voice/voice.css). */
export function skinVars(c: SkinColours): Record<string, string> {
  return { '--tenfour-tab-bg': c.tabBg, '--tenfour-calling-bg': c.callingBg, '--tenfour-sub-theme': c.subTheme };
}
