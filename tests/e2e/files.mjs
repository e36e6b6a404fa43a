// Files the browser cases make on the fly (uploads, logos, icons, tones): one PNG and one WAV writer.
import { crc32, deflateSync } from 'node:zlib';

/**
 * A w×h RGBA PNG of one colour; with `transparentLeft` its left half is fully transparent (what a logo with
 * margins looks like to the theme page).
 */
export function png(w = 64, h = 48, [r, g, b] = [220, 60, 20], { transparentLeft = false } = {}) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA
  const row = (alpha) => Buffer.from([0, ...Array.from({ length: w }, (_, x) => [r, g, b, alpha(x)]).flat()]);
  const rows = Array.from({ length: h }, () => row((x) => (transparentLeft && x < w / 2 ? 0 : 255)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A mono 16-bit PCM WAV of about `bytes` bytes (a tone at `hz`). */
export function wav(bytes = 64_000, hz = 660) {
  const rate = 16_000;
  const samples = Math.max(1, Math.floor((bytes - 44) / 2));
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) b.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000), 44 + i * 2);
  return b;
}
