// @vitest-environment node
/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, DEFAULT_LANGUAGE, detectLanguage } from './languages';
import { namespaceOf } from './index';

// Every language file of every namespace, loaded eagerly for the check.
const files = import.meta.glob<{ default: unknown }>(['../features/*/i18n/*.json', '../app/i18n/*.json', '../shared/i18n/*.json'], { eager: true });

type Tree = Record<string, unknown>;
const bundles = new Map<string, Map<string, unknown>>(); // ns → lang → messages
for (const [path, mod] of Object.entries(files)) {
  const lang = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
  const ns = namespaceOf(path);
  if (!bundles.has(ns)) bundles.set(ns, new Map());
  bundles.get(ns)!.set(lang, mod.default);
}

function leaves(v: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof v === 'string') out.set(prefix, v);
  else if (Array.isArray(v)) v.forEach((x, i) => leaves(x, `${prefix}[${i}]`).forEach((s, k) => out.set(k, s)));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v as Tree)) leaves(x, prefix ? `${prefix}.${k}` : k).forEach((s, kk) => out.set(kk, s));
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('i18n completeness', () => {
  it('has all six languages for every namespace', () => {
    expect(bundles.size).toBeGreaterThanOrEqual(7);
    for (const [ns, langs] of bundles) for (const l of LANGUAGES) expect(langs.has(l), `${ns}/${l}`).toBe(true);
  });

  for (const [ns, langs] of bundles) {
    it(`namespace "${ns}": every key of en-US exists, is non-empty and keeps its placeholders in every language`, () => {
      const base = leaves(langs.get(DEFAULT_LANGUAGE));
      expect(base.size).toBeGreaterThan(0);
      for (const l of LANGUAGES) {
        const other = leaves(langs.get(l));
        const missing = [...base.keys()].filter((k) => !other.has(k));
        const extra = [...other.keys()].filter((k) => !base.has(k));
        expect(missing, `${ns}/${l} missing`).toEqual([]);
        expect(extra, `${ns}/${l} extra`).toEqual([]);
        for (const [k, s] of other) {
          expect(s.trim(), `${ns}/${l}:${k} empty`).not.toBe('');
          expect(placeholders(s), `${ns}/${l}:${k} placeholders`).toEqual(placeholders(base.get(k)!));
        }
      }
    });
  }

  it('translates: a non-English language is not a copy of English', () => {
    for (const [ns, langs] of bundles) {
      const en = leaves(langs.get(DEFAULT_LANGUAGE));
      for (const l of LANGUAGES.filter((x) => x !== DEFAULT_LANGUAGE)) {
        const o = leaves(langs.get(l));
        const same = [...en].filter(([k, s]) => s.replace(/{{\s*\w+\s*}}/g, '').length > 12 && o.get(k) === s).map(([k]) => k);
        expect(same, `${ns}/${l} untranslated`).toEqual([]);
      }
    }
  });

  it('every literal t("key") used in a component exists in en-US of its namespace', () => {
    const src = join(process.cwd(), 'src'); // npm test runs in web/
    const walk = (d: string): string[] => readdirSync(d).flatMap((f: string) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : /\.tsx?$/.test(f) && !f.includes('.test.') ? [join(d, f)] : []));
    const problems: string[] = [];
    for (const file of walk(src)) {
      const text = readFileSync(file, 'utf8');
      const ns = /useTranslation\('(\w+)'\)/.exec(text)?.[1];
      if (!ns) continue;
      const en = leaves(bundles.get(ns)?.get(DEFAULT_LANGUAGE));
      const hasPrefix = (k: string) => [...en.keys()].some((x) => x === k || x.startsWith(`${k}.`) || x.startsWith(`${k}[`));
      for (const m of text.matchAll(/\bt\('([\w.-]+)'/g)) {
        const key = m[1]!;
        if (key.includes(':')) continue;
        if (!hasPrefix(key)) problems.push(`${file.replace(src, '')}: ${ns}:${key}`);
      }
      for (const m of text.matchAll(/\bt\('(\w+):([\w.-]+)'/g)) {
        const other = leaves(bundles.get(m[1]!)?.get(DEFAULT_LANGUAGE));
        if (!other.has(m[2]!)) problems.push(`${file.replace(src, '')}: ${m[1]}:${m[2]}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('language detection', () => {
  it('uses the browser language when supported, else en-US', () => {
    expect(detectLanguage(['zh-CN'])).toBe('zh-CN');
    expect(detectLanguage(['tr'])).toBe('tr-TR');
    expect(detectLanguage(['fr-CA', 'en'])).toBe('fr-FR');
    expect(detectLanguage(['de-DE', 'ja'])).toBe('en-US');
    expect(detectLanguage([])).toBe('en-US');
  });
});
