// /emergcy-alarm-data (+ child): the SOS alarm records of a range (GET findSos), with .xlsx export.
import { useTranslation } from 'react-i18next';
import { Card } from 'antd';
import { AlarmHistory } from '../components/AlarmHistory';

export default function EmergencyDataPage() {
  const { t } = useTranslation('safetyreport');
  return (
    <div className="page-pad" data-testid="emergency-data-page">
      <Card size="small" title={t('data.title')}>
        <AlarmHistory actions={false} testId="emergency-data" />
      </Card>
    </div>
  );
}
