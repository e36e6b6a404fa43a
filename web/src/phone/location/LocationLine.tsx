import { t } from '../i18n';
import { setLocationWanted, shownStatus, useLocation } from './location';

/** The line under the SOS button: is the position reported, and how often. */
export function LocationLine() {
  const loc = useLocation();
  const state = shownStatus(loc);
  return (
    <div className="p-loc p-small p-muted" data-testid="phone-location" data-state={state} data-sent={loc.sent}>
      {state === 'ok' ? t('location.ok', { seconds: loc.intervalS }) : t(`location.${state}`)}
    </div>
  );
}

/** The menu's switch. */
export function LocationToggle() {
  const wanted = useLocation((s) => s.wanted);
  return (
    <label className="p-row">
      <span>{t('location.title')}</span>
      <input type="checkbox" checked={wanted} onChange={(e) => setLocationWanted(e.target.checked)} data-testid="phone-location-toggle" />
    </label>
  );
}
