// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { logoProblem, MAX_LOGO_BYTES, pngDataUrl, pngInfo } from './logo';

/** A PNG header of w×h with a colour type (6: RGBA, 2: RGB), padded to n bytes. */
function png(w: number, h: number, colourType = 6, n = 64): Uint8Array {
  const b = new Uint8Array(Math.max(n, 33));
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, w);
  v.setUint32(20, h);
  b[24] = 8;
  b[25] = colourType;
  return b;
}

describe('pngInfo', () => {
  it('reads the size and transparency from the header', () => {
    expect(pngInfo(png(160, 48))).toMatchObject({ width: 160, height: 48, transparent: true });
    expect(pngInfo(png(32, 32, 2))).toMatchObject({ transparent: false });
  });
  it('refuses what is not a PNG', () => {
    const jpeg = new Uint8Array(64);
    jpeg.set([0xff, 0xd8, 0xff, 0xe0]);
    expect(pngInfo(jpeg)).toBeNull();
    expect(pngInfo(new Uint8Array(10))).toBeNull();
  });
});

describe('logoProblem', () => {
  it('applies spec §5: PNG, at most 50 KB, a square mini logo', () => {
    expect(logoProblem(png(160, 48), false)).toBeNull();
    expect(logoProblem(png(160, 48), true)).toBe('square');
    expect(logoProblem(png(64, 64), true)).toBeNull();
    expect(logoProblem(png(64, 64, 6, MAX_LOGO_BYTES), true)).toBeNull();
    expect(logoProblem(png(64, 64, 6, MAX_LOGO_BYTES + 1), true)).toBe('size');
    expect(logoProblem(new Uint8Array([1, 2, 3]), false)).toBe('type');
  });
});

describe('pngDataUrl', () => {
  it('encodes the bytes as the server expects', () => {
    const url = pngDataUrl(png(1, 1, 6, 40));
    expect(url.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    expect(atob(url.slice('data:image/png;base64,'.length))).toHaveLength(40);
  });
});
