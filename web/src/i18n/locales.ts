import type { Locale } from 'antd/es/locale';
import dayjs from '../shared/utils/dayjs';
import type { Language } from './languages';

// antd's and dayjs's locales switch with the UI language; each is a lazy chunk.
const antd: Record<Language, () => Promise<{ default: Locale }>> = {
  'en-US': () => import('antd/locale/en_US'),
  'zh-CN': () => import('antd/locale/zh_CN'),
  'tr-TR': () => import('antd/locale/tr_TR'),
  'es-ES': () => import('antd/locale/es_ES'),
  'fr-FR': () => import('antd/locale/fr_FR'),
  'ru-RU': () => import('antd/locale/ru_RU'),
};

const DAYJS: Record<Language, string> = { 'en-US': 'en', 'zh-CN': 'zh-cn', 'tr-TR': 'tr', 'es-ES': 'es', 'fr-FR': 'fr', 'ru-RU': 'ru' };
const dayjsLoaders: Record<Language, () => Promise<unknown>> = {
  'en-US': () => Promise.resolve(),
  'zh-CN': () => import('dayjs/locale/zh-cn'),
  'tr-TR': () => import('dayjs/locale/tr'),
  'es-ES': () => import('dayjs/locale/es'),
  'fr-FR': () => import('dayjs/locale/fr'),
  'ru-RU': () => import('dayjs/locale/ru'),
};

export async function loadLocales(lang: Language): Promise<Locale> {
  const [a] = await Promise.all([antd[lang](), dayjsLoaders[lang]()]);
  dayjs.locale(DAYJS[lang]);
  return a.default;
}
