// The six UI languages (spec §1). en-US is the default and the fallback.
export const LANGUAGES = ['en-US', 'zh-CN', 'tr-TR', 'es-ES', 'fr-FR', 'ru-RU'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Each language's own name, shown in the language pickers (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English',
  'zh-CN': '简体中文',
  'tr-TR': 'Türkçe',
  'es-ES': 'Español',
  'fr-FR': 'Français',
  'ru-RU': 'Русский',
};

export function isLanguage(s: unknown): s is Language {
  return typeof s === 'string' && (LANGUAGES as readonly string[]).includes(s);
}

/** The browser language when supported (exact tag, then by primary subtag), else en-US. */
export function detectLanguage(candidates: readonly string[]): Language {
  for (const c of candidates) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === c.toLowerCase());
    if (exact) return exact;
    const primary = c.split('-')[0]?.toLowerCase();
    const byPrimary = LANGUAGES.find((l) => l.split('-')[0]!.toLowerCase() === primary);
    if (byPrimary) return byPrimary;
  }
  return DEFAULT_LANGUAGE;
}
