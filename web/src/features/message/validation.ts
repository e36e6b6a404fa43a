// Client-side checks that mirror the server (docs/messages.md §2 and §7, spec §5), so a dispatcher sees the
// reason before anything is sent. The server checks again; its codes map to the same messages.

/** Most characters a message may have (code points, after \r\n → \n). */
export const MAX_CONTENT = 1000;
/** Most characters of a tone's name. */
export const MAX_TONE_NAME = 32;
/** Spec §9 "files limit 100": at most this many attachments wait in one composer. */
export const FILES_LIMIT = 100;
/** Spec §9 "SMS send timeout 5 s". */
export const SMS_SEND_TIMEOUT_MS = 5_000;

/**
 * The illegal set (docs/messages.md §2): control characters other than line feed and tab (U+0000–U+001F,
 * U+007F–U+009F, so a lone carriage return too), U+FFFD, U+FEFF, U+FFFE, U+FFFF and the bidirectional
 * embedding/override/isolate controls U+202A–U+202E and U+2066–U+2069. A lone UTF-16 surrogate cannot be sent as
 * UTF-8 (it would arrive as U+FFFD), so it is illegal too.
 */
export function isIllegalChar(cp: number): boolean {
  if (cp === 0x0a || cp === 0x09) return false;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp === 0xfffd || cp === 0xfeff || cp === 0xfffe || cp === 0xffff) return true;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return true;
  return cp >= 0xd800 && cp <= 0xdfff;
}

export function hasIllegalChars(s: string, alsoLineBreaks = false): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (isIllegalChar(cp) || (alsoLineBreaks && (cp === 0x0a || cp === 0x09))) return true;
  }
  return false;
}

/** Code points, as the server counts them. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export const normaliseContent = (s: string) => s.replace(/\r\n/g, '\n');

/** Client codes (spec §8, docs/messages.md §8): "11" empty, "10" invalid characters, "400" too long. */
export type ContentError = '11' | '10' | 'tooLong';

/** Checks a message's text; an attachment allows an empty text. */
export function checkContent(raw: string, hasFile = false): ContentError | undefined {
  const s = normaliseContent(raw);
  if (s.trim() === '') return hasFile ? undefined : '11';
  if (charCount(s) > MAX_CONTENT) return 'tooLong';
  if (hasIllegalChars(s)) return '10';
  return undefined;
}

/** The text to send: line ends normalised; a blank text next to a file is sent empty. */
export function contentToSend(raw: string): string {
  const s = normaliseContent(raw);
  return s.trim() === '' ? '' : s;
}

/** The message sender dialog's targets: groups (with the "others" entry) and terminals. */
export const OTHERS_GROUP = '__others';

export type TargetError = 'noTarget' | 'othersNeedTerminal';

/** Spec §5: group and terminal cannot both be empty; an others-group selection requires a terminal. */
export function checkTargets(groups: string[], terminals: string[]): TargetError | undefined {
  const realGroups = groups.filter((g) => g !== OTHERS_GROUP);
  if (groups.includes(OTHERS_GROUP) && terminals.length === 0) return 'othersNeedTerminal';
  if (realGroups.length === 0 && terminals.length === 0) return 'noTarget';
  return undefined;
}

/** One sms.send per target: every terminal `msId`, every group `gid` (docs/messages.md "message sender dialog"). */
export type Target = { msId: string } | { gid: string };

export function sendTargets(groups: string[], terminals: string[]): Target[] {
  const out: Target[] = [];
  for (const gid of new Set(groups)) if (gid !== OTHERS_GROUP) out.push({ gid });
  for (const msId of new Set(terminals)) out.push({ msId });
  return out;
}

/** Tone name (docs/messages.md §7): required ("76"), at most 32 characters ("77"), no illegal characters nor line breaks ("10"). */
export function checkToneName(raw: string): '76' | '77' | '10' | undefined {
  const s = raw.trim();
  if (!s) return '76';
  if (charCount(s) > MAX_TONE_NAME) return '77';
  if (hasIllegalChars(s, true)) return '10';
  return undefined;
}

const MB = 1024 * 1024;
/** Upload limits per kind (docs/messages.md §5, the server's defaults) and for tones (§7). */
export const UPLOAD_LIMITS = { image: 10 * MB, file: 50 * MB, audio: 20 * MB, video: 200 * MB, toneSound: 5 * MB, toneIcon: 1 * MB } as const;
export type LimitKey = keyof typeof UPLOAD_LIMITS;

/** "70" empty, "71" too large — before anything is sent. */
export function checkFileSize(size: number, limit: LimitKey): '70' | '71' | undefined {
  if (size <= 0) return '70';
  if (size > UPLOAD_LIMITS[limit]) return '71';
  return undefined;
}

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The kind an attachment is uploaded as; anything else goes as a downloadable file (the server reads the content). */
export function kindForFile(f: { type: string }): 'image' | 'audio' | 'video' | 'file' {
  const t = (f.type || '').toLowerCase();
  if (IMAGE_MIMES.has(t)) return 'image';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('video/')) return 'video';
  return 'file';
}

export { formatSize } from '../../shared/utils/files';
