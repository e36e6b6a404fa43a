// Spec §5: "Text length trim counts non-Latin characters as 2".

/**
 * Latin here means code points up to U+024F (Basic Latin, Latin-1, Latin Extended A/B); general punctuation
 * (U+2000–U+206F: dashes, quotes, the ellipsis) is narrow too.
 */
function weight(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  return cp <= 0x024f || (cp >= 0x2000 && cp <= 0x206f) ? 1 : 2;
}

/** Display length: Latin characters count 1, every other character 2. */
export function textLength(s: string): number {
  let n = 0;
  for (const ch of s) n += weight(ch);
  return n;
}

/** Cuts `s` so that its display length is at most `max`, adding an ellipsis when cut. */
export function trimText(s: string, max: number, ellipsis = '…'): string {
  if (textLength(s) <= max) return s;
  const room = Math.max(0, max - textLength(ellipsis));
  let n = 0;
  let out = '';
  for (const ch of s) {
    const w = weight(ch);
    if (n + w > room) break;
    n += w;
    out += ch;
  }
  return out + ellipsis;
}
