import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from './languages';
import { loadDateLocale, setDateLanguage } from '../shared/time/locale';

// Namespaces are found by folder: src/features/<ns>/i18n/<lang>.json, src/app/i18n → "app", src/shared/i18n → "common".
// The login page's namespaces (FIRST) ship in English in the entry chunk; the others (some 100 KB, most of what the
// login page would load, issue 32) and every other language are lazy chunks: loadAllTexts() fetches the rest, which
// the console's screens wait for (app/router.tsx) and the login page preloads once it has painted.
const FIRST = ['auth', 'app', 'common'];
const eager = import.meta.glob<{ default: object }>(['../features/auth/i18n/en-US.json', '../app/i18n/en-US.json', '../shared/i18n/en-US.json'], { eager: true });
const lazy = import.meta.glob<{ default: object }>([
  '../features/*/i18n/*.json',
  '../app/i18n/*.json',
  '../shared/i18n/*.json',
  '!../features/auth/i18n/en-US.json',
  '!../app/i18n/en-US.json',
  '!../shared/i18n/en-US.json',
]);

export function namespaceOf(path: string): string {
  const m = /features\/([^/]+)\/i18n\//.exec(path);
  if (m) return m[1]!;
  if (path.includes('/app/i18n/')) return 'app';
  return 'common';
}
const langOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

export const NAMESPACES = [...new Set([...Object.keys(eager), ...Object.keys(lazy)].map(namespaceOf))];

/** The namespaces a language loads: all, or the login page's until loadAllTexts() once deferTexts() was called. */
let wantedNs = new Set(NAMESPACES);

/**
 * The boot's choice (app/startup.ts, before initI18n): English and the chosen language load only the login page's
 * namespaces now, the rest when a screen of the console needs them (loadAllTexts, the router's console route) or
 * the login page has painted. Without it (tests, a boot that forgot), initI18n loads all.
 */
export function deferTexts(): void {
  if (!wanted) wantedNs = new Set(FIRST);
}

/** What was loaded, as "<lang>/<ns>" (the entry's English ones are there from the start). */
const loaded = new Map<string, Promise<void>>(Object.keys(eager).map((p) => [`${DEFAULT_LANGUAGE}/${namespaceOf(p)}`, Promise.resolve()]));

/** Loads the wanted namespaces of a language, and their English (the fallback of a missing key). */
function loadLanguage(lang: Language): Promise<unknown> {
  const jobs = Object.entries(lazy)
    .filter(([p]) => (langOf(p) === lang || langOf(p) === DEFAULT_LANGUAGE) && wantedNs.has(namespaceOf(p)))
    .map(([p, load]) => {
      const key = `${langOf(p)}/${namespaceOf(p)}`;
      let job = loaded.get(key);
      if (!job) {
        job = load().then((mod) => {
          i18next.addResourceBundle(langOf(p), namespaceOf(p), mod.default, true, true);
        });
        job.catch(() => loaded.delete(key)); // tried again by the next call
        loaded.set(key, job);
      }
      return job;
    });
  return Promise.all(jobs);
}

/** Loads every namespace of the current language (the console's screens need them; the login page has its own). */
export function loadAllTexts(): Promise<unknown> {
  wantedNs = new Set(NAMESPACES);
  return loadLanguage(wanted ?? DEFAULT_LANGUAGE);
}

let wanted: Language | undefined;

export async function initI18n(lang: Language): Promise<typeof i18next> {
  const resources: Record<string, Record<string, object>> = { [DEFAULT_LANGUAGE]: {} };
  for (const [p, mod] of Object.entries(eager)) resources[DEFAULT_LANGUAGE]![namespaceOf(p)] = mod.default;
  await i18next.use(initReactI18next).init({
    resources,
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: [...wantedNs],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await setI18nLanguage(lang);
  return i18next;
}

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
