// WCAG 2.x contrast of CSS colours (#rgb, #rrggbb, rgb(), rgba()): the ratio of two colours, a translucent
// foreground composited over its background first, and the nearest readable colour of a hue on given backgrounds.

export interface RGBA {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** WCAG AA: normal text 4.5:1; large text (24 px, or 18.66 px bold) and UI components 3:1. */
export const AA_TEXT = 4.5;
export const AA_LARGE = 3;

export function parseColor(c: string): RGBA {
  const s = c.trim();
  const hex = /^#([0-9a-f]{3,8})$/i.exec(s)?.[1];
  if (hex) {
    const h = hex.length <= 4 ? [...hex].map((x) => x + x).join('') : hex;
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const m = /^rgba?\(([^)]+)\)$/i.exec(s);
  if (!m) throw new Error(`unsupported colour ${c}`);
  const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
  return { r: p[0]!, g: p[1]!, b: p[2]!, a: p[3] ?? 1 };
}

export function toHex({ r, g, b }: RGBA): string {
  return '#' + [r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('');
}

/** `c` moved towards `to` by k (0: c, 1: to), as #rrggbb (a translucent c is taken as painted on white). */
export function mix(c: string, to: string, k: number): string {
  const a = over(parseColor(c), { r: 255, g: 255, b: 255, a: 1 });
  const b = parseColor(to);
  return toHex({ r: a.r + (b.r - a.r) * k, g: a.g + (b.g - a.g) * k, b: a.b + (b.b - a.b) * k, a: 1 });
}

/** `top` painted over the opaque `bottom`. */
export function over(top: RGBA, bottom: RGBA): RGBA {
  return { r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 };
}

function luminance({ r, g, b }: RGBA): number {
  const f = (v: number) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

/** The contrast ratio (1…21) of text colour `fg` on background `bg` (a translucent fg composited over bg). */
export function contrast(fg: string, bg: string): number {
  const b = over(parseColor(bg), { r: 255, g: 255, b: 255, a: 1 });
  const f = over(parseColor(fg), b);
  const [hi, lo] = [luminance(f), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour nearest to `c` that reaches `ratio` against every background: moved step by step towards black (on
 * light backgrounds) or white (on dark ones). `c` itself when it already does.
 */
export function readable(c: string, backgrounds: string[], ratio = AA_TEXT): string {
  if (backgrounds.every((bg) => contrast(c, bg) >= ratio)) return c;
  const first = over(parseColor(backgrounds[0]!), { r: 255, g: 255, b: 255, a: 1 });
  // A translucent colour is taken as it shows on the first background.
  const base = toHex(over(parseColor(c), first));
  const towards = luminance(first) > 0.18 ? '#000000' : '#ffffff';
  for (let i = 1; i <= 64; i++) {
    const mixed = mix(base, towards, i / 64);
    if (backgrounds.every((bg) => contrast(mixed, bg) >= ratio)) return mixed;
  }
  return towards;
}
