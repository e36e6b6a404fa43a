// @vitest-environment node
// The user manual describes the console as it is (issue 33): every screen is built, so no language may still speak
// of screens "not in this version yet" — the words of the placeholder page (app's notYet) or the manual's old line.
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/languages';

const manuals = import.meta.glob<Record<string, unknown>>('./i18n/*.json', { eager: true, import: 'default' });
const apps = import.meta.glob<{ notYet: string }>('../../app/i18n/*.json', { eager: true, import: 'default' });

/** The placeholder's marker in each language: the words the manual used to quote. */
const MARKERS: Record<string, RegExp> = {
  'en-US': /not in this version/i,
  'es-ES': /aún no está en esta versión/i,
  'fr-FR': /pas encore disponible dans cette version/i,
  'ru-RU': /пока нет в этой версии/i,
  'tr-TR': /bu sürümde henüz yok/i,
  'zh-CN': /当前版本尚未提供/,
};

describe('user manual', () => {
  it.each(LANGUAGES)('%s says nothing of screens not in this version', (lang) => {
    const text = JSON.stringify(manuals[`./i18n/${lang}.json`]);
    expect(text.length).toBeGreaterThan(1000);
    expect(text).not.toMatch(MARKERS[lang]!);
    expect(text).not.toContain(apps[`../../app/i18n/${lang}.json`]!.notYet);
  });
});
