// The phone app's own tiny translator (the console's i18next setup is not loaded here, to keep the app small).
// en-US is bundled; the other five languages are lazy chunks.
import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, detectLanguage, isLanguage, type Language } from '../i18n/languages';
import en from './i18n/en-US.json';

export type Messages = typeof en;
type Dict = { [k: string]: string | Dict };

const loaders: Record<Exclude<Language, 'en-US'>, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('./i18n/zh-CN.json'),
  'tr-TR': () => import('./i18n/tr-TR.json'),
  'es-ES': () => import('./i18n/es-ES.json'),
  'fr-FR': () => import('./i18n/fr-FR.json'),
  'ru-RU': () => import('./i18n/ru-RU.json'),
};

const LANG_KEY = 'tenfour.app.language';
let lang: Language = DEFAULT_LANGUAGE;
let dict: Dict = en as unknown as Dict;
const subs = new Set<() => void>();

function lookup(d: Dict, key: string): string | undefined {
  let cur: string | Dict | undefined = d;
  for (const part of key.split('.')) {
    if (!cur || typeof cur === 'string') return undefined;
    cur = cur[part];
  }
  return typeof cur === 'string' ? cur : undefined;
}

/** The message of `key` in the current language (English when missing), with {{name}} placeholders filled. */
export function t(key: string, vars?: Record<string, string | number>): string {
  const s = lookup(dict, key) ?? lookup(en as unknown as Dict, key) ?? key;
  return vars ? s.replace(/{{\s*(\w+)\s*}}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s;
}

/** The text of a refusal code under `prefix` (loginError, floorError), else `prefix.other` with the code. */
export function tCode(prefix: string, code: string): string {
  const key = `${prefix}.${code}`;
  return lookup(dict, key) !== undefined || lookup(en as unknown as Dict, key) !== undefined ? t(key) : t(`${prefix}.other`, { code });
}

export function language(): Language {
  return lang;
}

export async function setLanguage(l: Language): Promise<void> {
  dict = l === 'en-US' ? (en as unknown as Dict) : ((await loaders[l]()).default as unknown as Dict);
  lang = l;
  document.documentElement.lang = l;
  try {
    localStorage.setItem(LANG_KEY, l);
  } catch {
    /* private mode */
  }
  subs.forEach((fn) => fn());
}

/** The stored choice, else the browser's language when supported, else en-US. */
export function initialLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    /* private mode */
  }
  if (isLanguage(stored)) return stored;
  return detectLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** Re-renders the caller when the language changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(
    (fn) => {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    () => lang,
  );
}
