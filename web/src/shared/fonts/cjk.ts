// Chinese on a machine without CJK fonts (issue 33: a bare Linux PC showed boxes). The faces of Noto Sans SC
// (@fontsource, sliced by unicode range) are registered under one family, CJK_FAMILY, that the console's and the
// login page's font stacks (family.ts) name before the generic `sans-serif`: a browser fetches a slice only when text in its
// range is drawn, and a font the machine already has (local()) is used before any download. Latin text never
// touches it. Only the woff2 files are bundled (every browser the console supports reads woff2).
import faces from '@fontsource/noto-sans-sc/400.css?raw';
import { CJK_FAMILY } from './family';

/** Installed fonts tried before the bundled slices (full and PostScript names). */
const LOCAL = ['Noto Sans CJK SC', 'NotoSansCJKsc-Regular', 'Noto Sans SC', 'Source Han Sans SC', 'Microsoft YaHei', 'PingFang SC'];

const files = import.meta.glob<string>('/node_modules/@fontsource/noto-sans-sc/files/noto-sans-sc-[0-9]*-400-normal.woff2', {
  query: '?url',
  import: 'default',
  eager: true,
});

export interface Slice {
  file: string;
  unicodeRange: string;
}

/** The package's CJK slices (numbered; its latin, cyrillic and vietnamese ones are left to the system fonts): each
 * @font-face's woff2 file name and unicode range. */
export function slices(css: string): Slice[] {
  const out: Slice[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/(noto-sans-sc-\d+-400-normal\.woff2)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    const unicodeRange = range && notLatin(range);
    if (file && unicodeRange) out.push({ file, unicodeRange });
  }
  return out;
}

/** The font source of a slice: the installed fonts first, then the bundled file. */
export function source(url: string): string {
  return [...LOCAL.map((n) => `local("${n}")`), `url("${url}") format("woff2")`].join(', ');
}

/** Below this the system's own fonts write (Latin, Greek, Cyrillic…): one slice also carries ASCII letters. */
const FIRST = 0x2000;

/** A unicode-range descriptor without its code points below FIRST ('' when nothing is left). */
export function notLatin(range: string): string {
  const kept: string[] = [];
  for (const part of range.split(',')) {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    const a = parseInt(lo!, 16);
    const b = hi ? parseInt(hi, 16) : a;
    if (b < FIRST) continue;
    const from = Math.max(a, FIRST);
    kept.push(from === b ? `U+${from.toString(16)}` : `U+${from.toString(16)}-${b.toString(16)}`);
  }
  return kept.join(',');
}

let registered = false;

/** Registers the slices (no download: a face loads when text in its range is first drawn). */
export function registerCjkFont(fonts: FontFaceSet | undefined = typeof document === 'undefined' ? undefined : document.fonts): number {
  if (registered || !fonts || typeof FontFace === 'undefined') return 0;
  registered = true;
  let n = 0;
  for (const s of slices(faces)) {
    const url = files[`/node_modules/@fontsource/noto-sans-sc/files/${s.file}`];
    if (!url) continue;
    fonts.add(new FontFace(CJK_FAMILY, source(url), { unicodeRange: s.unicodeRange, display: 'swap', weight: '400' }));
    n++;
  }
  return n;
}
