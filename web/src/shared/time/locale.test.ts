import { describe, expect, it } from 'vitest';
import dayjs from '../utils/dayjs';
import { i18next, initI18n, setI18nLanguage } from '../../i18n';
import { dateLocale, fromNow } from './locale';

const ago = () => Date.now() - 2 * 60_000 - 5_000;

describe('the date locale follows the UI language', () => {
  it('maps UI tags to date locales', () => {
    expect(['en-US', 'zh-CN', 'tr-TR', 'es-ES', 'fr-FR', 'ru-RU', 'xx-YY'].map(dateLocale)).toEqual(['en', 'zh-cn', 'tr', 'es', 'fr', 'ru', 'en']);
  });

  it('switching 中文 → Русский reads relative times in Russian, and of two quick switches the later wins', async () => {
    await initI18n('zh-CN');
    expect(fromNow(ago(), i18next.language)).toBe('2 分钟前');
    await Promise.all([setI18nLanguage('zh-CN'), setI18nLanguage('ru-RU')]);
    expect(i18next.language).toBe('ru-RU');
    expect(dayjs(ago()).fromNow()).toBe('2 минуты назад');
    expect(fromNow(ago(), i18next.language)).toBe('2 минуты назад');
  });

  it('is applied before components hear of the language change (they re-render on it)', async () => {
    await initI18n('en-US');
    let seen = '';
    const hear = () => (seen = dayjs(ago()).fromNow());
    i18next.on('languageChanged', hear);
    await setI18nLanguage('fr-FR');
    i18next.off('languageChanged', hear);
    expect(seen).toBe('il y a 2 minutes');
  });
});
