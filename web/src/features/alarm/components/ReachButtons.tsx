// The row buttons that reach an alarm's terminal: show it on the map, call it, listen to it.
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Tooltip } from 'antd';
import { AimOutlined, CustomerServiceOutlined, PhoneOutlined } from '@ant-design/icons';
import type { SosAlarm } from '../../../shared/alarms/sos';
import { mapLink } from '../hooks';
import { callTerminal, listenTerminal } from '../voice';

export function ReachButtons({ alarm: a, child, fail }: { alarm: SosAlarm; child: boolean; fail: (e: unknown) => void }) {
  const { t } = useTranslation('alarm');
  const navigate = useNavigate();
  return (
    <>
      <Tooltip title={t('interrupt.map')}>
        <Button size="small" icon={<AimOutlined />} onClick={() => navigate(mapLink(child, a.msId, { sos: a.id, lat: a.lat, lng: a.lng }))} aria-label={t('interrupt.map')} />
      </Tooltip>
      <Tooltip title={t('interrupt.call')}>
        <Button size="small" icon={<PhoneOutlined />} onClick={() => callTerminal(a.msId).catch(fail)} aria-label={t('interrupt.call')} />
      </Tooltip>
      <Tooltip title={t('interrupt.listen')}>
        <Button size="small" icon={<CustomerServiceOutlined />} onClick={() => listenTerminal(a.msId).catch(fail)} aria-label={t('interrupt.listen')} />
      </Tooltip>
    </>
  );
}
