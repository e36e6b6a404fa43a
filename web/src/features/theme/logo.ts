// The logo rules of spec §5, checked in the browser before upload (the server checks them again: codes 145–147):
// a PNG, at most 50 KB, the mini logo square. The PNG header is read directly, so no image has to be decoded.
export const MAX_LOGO_BYTES = 50 * 1024;
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type LogoProblem = 'type' | 'size' | 'square';

export interface LogoInfo {
  width: number;
  height: number;
  bytes: number;
  /** The alpha channel or a transparency chunk: spec §5 asks for transparent logos (advice, not a rule). */
  transparent: boolean;
}

/** Reads a PNG's size from its header (IHDR); null when the bytes are not a PNG. */
export function pngInfo(b: Uint8Array): LogoInfo | null {
  if (b.length < 33 || SIGNATURE.some((v, i) => b[i] !== v)) return null;
  const type = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (type !== 'IHDR') return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const colourType = b[25]!;
  // Colour types 4 and 6 carry alpha; any other may carry a tRNS chunk.
  const hasTRNS = new TextDecoder('latin1').decode(b).includes('tRNS');
  return { width: view.getUint32(16), height: view.getUint32(20), bytes: b.length, transparent: colourType === 4 || colourType === 6 || hasTRNS };
}

/** What breaks spec §5 in a logo file, or null. */
export function logoProblem(b: Uint8Array, square: boolean): LogoProblem | null {
  const info = pngInfo(b);
  if (!info) return 'type';
  if (b.length > MAX_LOGO_BYTES) return 'size';
  if (square && info.width !== info.height) return 'square';
  return null;
}

/** The data URL the server takes (data:image/png;base64,…). */
export function pngDataUrl(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(s)}`;
}

/** A chosen file's bytes. */
export async function fileBytes(f: Blob): Promise<Uint8Array> {
  return new Uint8Array(await f.arrayBuffer());
}
