// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { md5 } from './md5';

// RFC 1321's test vectors, a six-digit password and UTF-8 input.
const vectors: [string, string][] = [
  ['', 'd41d8cd98f00b204e9800998ecf8427e'],
  ['abc', '900150983cd24fb0d6963f7d28e17f72'],
  ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
  ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
  ['123456', 'e10adc3949ba59abbe56e057f20f883e'],
  ['Şifre-ü', '70a5cd45cf8556a0f7b78c865dc81b2a'],
];

describe('md5', () => {
  it.each(vectors)('md5(%j) = %s', (input, digest) => {
    expect(md5(input)).toBe(digest);
  });
});
