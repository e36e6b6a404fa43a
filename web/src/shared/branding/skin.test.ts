// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrast } from '../contrast';
import { HEADER_BG } from '../theme';
import { DEFAULT_CALLING_COLOR, forWhiteText, skinColours, skinVars } from './skin';

describe('forWhiteText', () => {
  it('keeps a dark colour and darkens a light one until white text reads', () => {
    expect(forWhiteText('#00474f')).toBe('#00474f');
    for (const c of ['#ffffff', '#16a34a', '#f59e0b', '#e0f2f1', '#7fffd4']) {
      const d = forWhiteText(c);
      expect(contrast('#ffffff', d)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});

describe('skinColours', () => {
  it('falls back to the console’s own colours without a theme', () => {
    const c = skinColours(null);
    expect(c.tabBg).toBe(HEADER_BG);
    expect(c.callingBg).toBe(forWhiteText(DEFAULT_CALLING_COLOR));
    expect(c.subTheme).toBe('transparent');
    expect(c.weightText).toBeUndefined();
  });
  it('makes every chosen colour readable, even pale ones', () => {
    const c = skinColours({ tabColor: '#c0fff0', callingColor: '#aaffaa', subThemeColor: '#e0f2f1', weightThemeColor: '#ffe58f' }, '#ffffff');
    expect(contrast('#ffffff', c.tabBg)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast('#ffffff', c.callingBg)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(c.weightText!, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(c.subTheme).toBe('#e0f2f1');
    // On a dark login frame a dark emphasis colour is lightened instead.
    const dark = skinColours({ weightThemeColor: '#0b3d3a' }, '#141414');
    expect(contrast(dark.weightText!, '#141414')).toBeGreaterThanOrEqual(AA_TEXT);
  });
  it('gives the shell its CSS variables', () => {
    expect(skinVars(skinColours({ tabColor: '#00474f' }))).toMatchObject({ '--tenfour-tab-bg': '#00474f' });
  });
});
