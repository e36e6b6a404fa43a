import { useTranslation } from 'react-i18next';
import { Tag } from 'antd';
import type { SosState } from '../../../shared/alarms/sos';

const COLORS: Record<SosState, string> = { 0: 'red', 1: 'orange', 2: 'green' };

export function SosStateTag({ state }: { state: SosState }) {
  const { t } = useTranslation('alarm');
  return (
    <Tag color={COLORS[state]} data-testid="sos-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
