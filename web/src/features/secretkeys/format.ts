// The key format of spec §5 as the server checks it (internal/secretkey ValidKey; ADR 0021): exactly 32 digits and
// capital letters. The one text that says 320 is not followed.
export const KEY_LENGTH = 32;
export const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const KEY_RE = /^[0-9A-Z]{32}$/;

export type KeyProblem = 'required' | 'lowercase' | 'characters' | 'length';

/** What is wrong with a typed key (blanks around it are dropped, as the server does), or null. */
export function keyProblem(raw: string): KeyProblem | null {
  const k = raw.trim();
  if (!k) return 'required';
  if (KEY_RE.test(k)) return null;
  if (/[a-z]/.test(k) && /^[0-9A-Za-z]+$/.test(k)) return 'lowercase';
  if (!/^[0-9A-Z]+$/.test(k)) return 'characters';
  return 'length';
}

/** A random key from the browser's cryptographic source, without modulo bias (rejection sampling). */
export function generateKey(random: (buf: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const limit = 256 - (256 % KEY_ALPHABET.length); // 252: values at or above it are drawn again
  let out = '';
  while (out.length < KEY_LENGTH) {
    for (const v of random(new Uint8Array(KEY_LENGTH))) {
      if (v < limit && out.length < KEY_LENGTH) out += KEY_ALPHABET[v % KEY_ALPHABET.length];
    }
  }
  return out;
}

/** A key as shown when hidden: its last four characters. */
export function maskKey(k: string): string {
  return k.length <= 4 ? k : `${'•'.repeat(8)}${k.slice(-4)}`;
}

/**
 * Who created a key, as the console names an account: "Name (id)" when the name is known — the signed-in
 * dispatcher's own, or an account of the directory — else the id (issue 33: "created by" showed a bare id).
 */
export function creatorText(id: string, nameOf: (id: string) => string | undefined): string {
  const name = id ? nameOf(id) : undefined;
  return name && name !== id ? `${name} (${id})` : id || '—';
}
