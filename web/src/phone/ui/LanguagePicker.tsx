import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../i18n/languages';
import { setLanguage, t, useLanguage } from '../i18n';

export function LanguagePicker() {
  const lang = useLanguage();
  return (
    <select className="p-select" value={lang} onChange={(e) => void setLanguage(e.target.value as Language)} aria-label={t('menu.language')} data-testid="phone-language">
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
