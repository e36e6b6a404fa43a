// @vitest-environment node
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrast, readable } from './contrast';
import { PRIMARY_HEX, THEMES, type PrimaryColor } from './settings';
import { buildTheme, HEADER_BG, skinBackgrounds, TEXT_TOKENS } from './theme';

// The token pairs every screen is made of, for every skin and primary colour (and a host's branding colour): text
// on the skin's backgrounds and white text on the primary colour at WCAG AA. tests/e2e/contrast.mjs measures the
// rendered screens.
const PRIMARIES = [...(Object.keys(PRIMARY_HEX) as PrimaryColor[]).map((p) => [p, undefined] as const), ['blue', '#d4380d'] as const];

describe('contrast', () => {
  it('is the WCAG ratio, translucent text composited over its background', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(contrast('#8c8c8c', '#ffffff'), 1);
  });
  it('readable() keeps a colour that reads and moves one that does not until it does', () => {
    expect(readable('#000000', ['#ffffff'])).toBe('#000000');
    const blue = readable('#1677ff', ['#ffffff']);
    expect(contrast(blue, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(readable('rgba(255,255,255,0.45)', ['#18212b', '#0f151c']), '#0f151c')).toBeGreaterThanOrEqual(AA_TEXT);
  });
});

describe.each(THEMES)('the %s skin', (skin) => {
  it.each(PRIMARIES)('with primary %s (brand %s): text tokens and white on primary meet AA', (primary, brand) => {
    const t = theme.getDesignToken(buildTheme(skin, primary, brand));
    const fails: string[] = [];
    for (const bg of skinBackgrounds(t))
      for (const k of TEXT_TOKENS) if (contrast(t[k], bg) < AA_TEXT) fails.push(`${k} ${t[k]} on ${bg}: ${contrast(t[k], bg).toFixed(2)}`);
    const tabs = buildTheme(skin, primary, brand).components?.Tabs?.itemSelectedColor ?? t.colorPrimary;
    for (const bg of skinBackgrounds(t)) if (contrast(tabs, bg) < AA_TEXT) fails.push(`the selected tab ${tabs} on ${bg}: ${contrast(tabs, bg).toFixed(2)}`);
    for (const [fg, bg, what] of [
      [t.colorTextLightSolid, t.colorPrimary, 'a primary button'],
      ['#ffffff', t.colorPrimary, 'the selected header menu item'],
      ['rgba(255,255,255,0.65)', HEADER_BG, 'a header menu item'],
      [t.colorTextLightSolid, t.colorError, 'a danger button'],
    ] as const)
      if (contrast(fg, bg) < AA_TEXT) fails.push(`${what}: ${fg} on ${bg}: ${contrast(fg, bg).toFixed(2)}`);
    expect(fails).toEqual([]);
  });
});
