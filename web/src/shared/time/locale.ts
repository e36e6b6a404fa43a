// The date library's locale follows the UI language. i18n switches languages through setDateLanguage (the
// locale chunk loaded, then applied in the same step as the language change, so every component that re-renders
// on the change reads dates in the new language); fromNow takes the language explicitly, so a relative time
// is never in another language than the sentence around it.
import dayjs from '../utils/dayjs';

const loaders: Record<string, () => Promise<unknown>> = {
  en: () => Promise.resolve(),
  'zh-cn': () => import('dayjs/locale/zh-cn'),
  tr: () => import('dayjs/locale/tr'),
  es: () => import('dayjs/locale/es'),
  fr: () => import('dayjs/locale/fr'),
  ru: () => import('dayjs/locale/ru'),
};

/** dayjs's locale name of a UI language tag (zh-CN → zh-cn, ru-RU → ru); en for anything unknown. */
export function dateLocale(tag: string): string {
  const lower = tag.toLowerCase();
  if (lower in loaders) return lower;
  const primary = lower.split('-')[0]!;
  return primary in loaders ? primary : 'en';
}

/** Loads the date locale of a UI language (a lazy chunk); applying it is setDateLanguage's job. */
export async function loadDateLocale(tag: string): Promise<void> {
  await loaders[dateLocale(tag)]!();
}

/** Makes a loaded locale the default of every date formatted from now on. */
export function setDateLanguage(tag: string): void {
  dayjs.locale(dateLocale(tag));
}

/** "2 minutes ago" in the given UI language. */
export function fromNow(ms: number, tag: string): string {
  return dayjs(ms).locale(dateLocale(tag)).fromNow();
}
