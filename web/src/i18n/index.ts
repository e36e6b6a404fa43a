import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from './languages';
import { loadDateLocale, setDateLanguage } from '../shared/time/locale';

// Namespaces are found by folder: src/features/<ns>/i18n/<lang>.json, src/app/i18n → "app", src/shared/i18n → "common".
// en-US ships in the entry chunk; every other language is a lazy chunk loaded when chosen.
const eager = import.meta.glob<{ default: object }>(['../features/*/i18n/en-US.json', '../app/i18n/en-US.json', '../shared/i18n/en-US.json'], { eager: true });
const lazy = import.meta.glob<{ default: object }>(['../features/*/i18n/*.json', '../app/i18n/*.json', '../shared/i18n/*.json', '!**/en-US.json']);

export function namespaceOf(path: string): string {
  const m = /features\/([^/]+)\/i18n\//.exec(path);
  if (m) return m[1]!;
  if (path.includes('/app/i18n/')) return 'app';
  return 'common';
}
const langOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

export const NAMESPACES = [...new Set(Object.keys(eager).map(namespaceOf))];

async function loadLanguage(lang: Language): Promise<void> {
  if (lang === DEFAULT_LANGUAGE) return;
  const jobs = Object.entries(lazy)
    .filter(([p]) => langOf(p) === lang)
    .map(async ([p, load]) => {
      const mod = await load();
      i18next.addResourceBundle(lang, namespaceOf(p), mod.default, true, true);
    });
  await Promise.all(jobs);
}

export async function initI18n(lang: Language): Promise<typeof i18next> {
  const resources: Record<string, Record<string, object>> = { [DEFAULT_LANGUAGE]: {} };
  for (const [p, mod] of Object.entries(eager)) resources[DEFAULT_LANGUAGE]![namespaceOf(p)] = mod.default;
  await i18next.use(initReactI18next).init({
    resources,
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await setI18nLanguage(lang);
  return i18next;
}

let wanted: Language | undefined;

/**
 * Switches the UI language: texts and the date locale are loaded first, then applied together — the date locale
 * before i18next announces the change, so components re-rendering on it format dates in the new language. Of
 * two quick switches the later wins, whichever chunk arrives last.
 */
export async function setI18nLanguage(lang: Language): Promise<void> {
  wanted = lang;
  await Promise.all([loadLanguage(lang), loadDateLocale(lang)]);
  if (wanted !== lang) return;
  setDateLanguage(lang);
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export { i18next };
