// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { notLatin, slices, source } from './cjk';

// Read from the package itself: vitest hands CSS imports (even `?raw`) over empty.
const faces = readFileSync(createRequire(import.meta.url).resolve('@fontsource/noto-sans-sc/400.css'), 'utf8');

/** Whether a unicode-range descriptor covers a code point. */
function covers(range: string, cp: number): boolean {
  return range.split(',').some((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    const a = parseInt(lo!, 16);
    return cp >= a && cp <= (hi ? parseInt(hi, 16) : a);
  });
}

describe('the CJK fallback font', () => {
  const all = slices(faces);

  it('has a woff2 slice with a unicode range for every numbered (CJK) face of the package', () => {
    expect(all.length).toBeGreaterThan(90);
    expect(all.length).toBeLessThanOrEqual(faces.match(/\/\* noto-sans-sc-\[\d+\]-400-normal \*\//g)!.length);
    for (const s of all) expect(s.file).toMatch(/^noto-sans-sc-\d+-400-normal\.woff2$/);
  });

  it('covers the console\'s Chinese and leaves Latin to the system font', () => {
    for (const ch of '调度台紧急报警消息已读巡更') expect(all.some((s) => covers(s.unicodeRange, ch.codePointAt(0)!)), ch).toBe(true);
    for (const ch of 'Aa9') expect(all.some((s) => covers(s.unicodeRange, ch.codePointAt(0)!)), ch).toBe(false);
  });

  it('keeps ranges from U+2000 on', () => {
    expect(notLatin('U+41-4d,U+61-7b,U+1f00-2010,U+4e00')).toBe('U+2000-2010,U+4e00');
    expect(notLatin('U+20-7e')).toBe('');
  });

  it('tries an installed CJK font before the bundled file', () => {
    const src = source('/assets/x.woff2');
    expect(src.indexOf('local("Noto Sans CJK SC")')).toBe(0);
    expect(src.endsWith('url("/assets/x.woff2") format("woff2")')).toBe(true);
  });
});
