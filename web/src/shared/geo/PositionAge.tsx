// A position as "where the terminal is": the coordinates, how old the fix is ("12 minutes ago", its time in the
// tooltip) and a "stale" mark past POSITION_STALE_MS — one component for the alarm dialog, the terminal info panel
// and the map's terminal card, so the rule reads the same on each.
import { useTranslation } from 'react-i18next';
import { Space, Tag, Tooltip } from 'antd';
import { fromNow } from '../time/locale';
import { formatZoned } from '../time/zone';
import { useDateTimeFormat } from '../branding/store';
import { useNow } from '../utils/useNow';
import { fixAge, POSITION_STALE_MS } from './fixAge';

/** Re-read the clock this often: an age in minutes, and the stale mark appearing while the panel is open. */
const AGE_TICK_MS = 15_000;

export function PositionAge({ lat, lng, at }: { lat?: number | null; lng?: number | null; at?: number | null }) {
  const { t, i18n } = useTranslation('common');
  const dateTime = useDateTimeFormat();
  const now = useNow(AGE_TICK_MS);
  if (typeof lat !== 'number' || typeof lng !== 'number' || (lat === 0 && lng === 0)) return <>—</>;
  const age = fixAge(at, now);
  return (
    <Space size={4} wrap data-testid="position" data-stale={!age || age.stale ? '1' : '0'} data-age-ms={age?.ageMs ?? ''}>
      <span>{`${lat.toFixed(5)}, ${lng.toFixed(5)}`}</span>
      {age ? (
        <Tooltip title={t('position.fixAt', { time: formatZoned(at!, dateTime) })}>
          <span className="position-age" data-testid="position-age">
            {t('position.age', { age: fromNow(now - age.ageMs, i18n.language) })}
          </span>
        </Tooltip>
      ) : (
        <span data-testid="position-age">{t('position.noTime')}</span>
      )}
      {(!age || age.stale) && (
        <Tooltip title={t('position.staleHelp', { minutes: POSITION_STALE_MS / 60_000 })}>
          <Tag color="orange" data-testid="position-stale">
            {t('position.stale')}
          </Tag>
        </Tooltip>
      )}
    </Space>
  );
}
