import { describe, expect, it } from 'vitest';
import { deferTexts, i18next, initI18n, loadAllTexts, NAMESPACES, setI18nLanguage } from './index';

// The login page loads its own texts only (issue 32: the others were 114 KB of the 153 KB it loaded); the console's
// screens wait for the rest (app/router.tsx), in the chosen language and English, its fallback.
describe('texts deferred by the boot', () => {
  it('are the login page’s namespaces first, and every namespace after loadAllTexts(), of a language chosen later too', async () => {
    deferTexts();
    await initI18n('fr-FR');
    const has = (lang: string) => NAMESPACES.filter((ns) => i18next.hasResourceBundle(lang, ns)).sort();
    expect(has('en-US')).toEqual(['app', 'auth', 'common']);
    expect(has('fr-FR')).toEqual(['app', 'auth', 'common']);
    expect(NAMESPACES.length).toBeGreaterThan(20);

    await loadAllTexts();
    expect(has('en-US')).toEqual([...NAMESPACES].sort());
    expect(has('fr-FR')).toEqual([...NAMESPACES].sort());
    // A language chosen later comes whole.
    await setI18nLanguage('ru-RU');
    expect(has('ru-RU')).toEqual([...NAMESPACES].sort());
  });
});
