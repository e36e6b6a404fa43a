import type { Locale } from 'antd/es/locale';
import type { Language } from './languages';

// antd's locale switches with the UI language (a lazy chunk); the date locale switches with i18next (setI18nLanguage).
const antd: Record<Language, () => Promise<{ default: Locale }>> = {
  'en-US': () => import('antd/locale/en_US'),
  'zh-CN': () => import('antd/locale/zh_CN'),
  'tr-TR': () => import('antd/locale/tr_TR'),
  'es-ES': () => import('antd/locale/es_ES'),
  'fr-FR': () => import('antd/locale/fr_FR'),
  'ru-RU': () => import('antd/locale/ru_RU'),
};

export async function loadLocales(lang: Language): Promise<Locale> {
  return (await antd[lang]()).default;
}
