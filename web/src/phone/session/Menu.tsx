import { t } from '../i18n';
import { LocationToggle } from '../location/LocationLine';
import { LanguagePicker } from '../ui/LanguagePicker';
import { Sheet } from '../ui/Sheet';
import { install, useInstallPrompt } from './install';
import { signOut } from './session';
import { useSession } from './store';

export function MenuSheet({ onClose, onBus }: { onClose: () => void; onBus: () => void }) {
  const prompt = useInstallPrompt((s) => s.prompt);
  const secretKey = useSession((s) => s.secretKey);
  return (
    <Sheet title={t('menu.title')} onClose={onClose} testid="phone-menu">
      <LocationToggle />
      <label className="p-row">
        <span>{t('menu.language')}</span>
        <LanguagePicker />
      </label>
      <div className="p-row" data-testid="phone-secret-key">
        <span>{t('menu.secretKey')}</span>
        <span>{secretKey ? `••••${secretKey.slice(-4)}` : t('menu.noSecretKey')}</span>
      </div>
      <button className="p-row" onClick={onBus} data-testid="phone-bus-open">
        {t('bus.title')}
      </button>
      {prompt && (
        <button className="p-row" onClick={() => void install(prompt)}>
          {t('menu.install')}
        </button>
      )}
      <button className="p-row p-danger" onClick={signOut} data-testid="phone-signout">
        {t('menu.signOut')}
      </button>
    </Sheet>
  );
}
