// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { creatorText, generateKey, KEY_ALPHABET, keyProblem, maskKey } from './format';

describe('keyProblem', () => {
  // null: 32 digits and capital letters, with blanks around, are accepted; otherwise what is wrong.
  it.each([
    ['A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R6', null],
    ['  3FJ9T0QW6ZP2XK8M4RB7N1CDV5HL9YSE ', null],
    ['  ', 'required'],
    ['a1b2c3d4e5f6g7h8j9k0l1m2n3p4q5r6', 'lowercase'],
    ['A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R-', 'characters'],
    ['A1B2C3D4 5F6G7H8J9K0L1M2N3P4Q5R6', 'characters'],
    ['A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R', 'length'],
    ['A'.repeat(320), 'length'],
  ])('%j → %s', (key, problem) => {
    expect(keyProblem(key)).toBe(problem);
  });
});

describe('generateKey', () => {
  it('makes valid keys', () => {
    for (let i = 0; i < 20; i++) expect(keyProblem(generateKey())).toBeNull();
  });
  it('draws again above the last full round of the alphabet', () => {
    // 252..255 would favour the first four characters: they are skipped, 0 → '0', 35 → 'Z', 36 → '0'.
    let call = 0;
    const key = generateKey((b) => {
      call++;
      b.fill(call === 1 ? 255 : 35);
      if (call === 1) b[0] = 0;
      return b;
    });
    expect(key).toBe('0' + 'Z'.repeat(31));
    expect(KEY_ALPHABET).toHaveLength(36);
  });
});

describe('maskKey', () => {
  it('shows the last four characters', () => {
    expect(maskKey('A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R6')).toBe('••••••••Q5R6');
  });
});

describe('creatorText', () => {
  const names: Record<string, string> = { '10000001': 'Dispatcher' };
  it('names the creator with the id, or the id alone when no name is known', () => {
    expect(creatorText('10000001', (id) => names[id])).toBe('Dispatcher (10000001)');
    expect(creatorText('10000002', (id) => names[id])).toBe('10000002');
    expect(creatorText('', (id) => names[id])).toBe('—');
  });
});
