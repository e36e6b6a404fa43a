import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import en from './i18n/en-US.json';
import { setLanguage, t } from './i18n';

const files = import.meta.glob<{ default: unknown }>('./i18n/*.json', { eager: true });

function leaves(v: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof v === 'string') out.set(prefix, v);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('phone app languages', () => {
  const base = leaves(en);
  for (const lang of LANGUAGES) {
    it(`${lang}: every key, non-empty, same placeholders, translated`, () => {
      const mod = files[`./i18n/${lang}.json`];
      expect(mod, lang).toBeDefined();
      const other = leaves(mod!.default);
      expect([...base.keys()].filter((k) => !other.has(k))).toEqual([]);
      expect([...other.keys()].filter((k) => !base.has(k))).toEqual([]);
      for (const [k, s] of other) {
        expect(s.trim(), k).not.toBe('');
        expect(placeholders(s), k).toEqual(placeholders(base.get(k)!));
      }
      if (lang !== 'en-US') {
        const same = [...base].filter(([k, s]) => s.replace(/{{\s*\w+\s*}}/g, '').length > 12 && other.get(k) === s).map(([k]) => k);
        expect(same).toEqual([]);
      }
    });
  }

  it('translates with placeholders and falls back to English', async () => {
    expect(t('talk.someone', { name: 'Unit 4' })).toBe('Unit 4 is talking');
    await setLanguage('ru-RU');
    expect(t('talk.someone', { name: 'Unit 4' })).toBe('Unit 4 говорит');
    expect(t('no.such.key')).toBe('no.such.key');
    await setLanguage('en-US');
  });
});
