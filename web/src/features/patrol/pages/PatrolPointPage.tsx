// /patrol-point: patrol points — list, add and edit with the name and NFC checks, on the map.
import { useTranslation } from 'react-i18next';
import { Card } from 'antd';
import { PatrolNav } from '../components/PatrolNav';
import { PointsPanel } from '../components/PointsPanel';

export default function PatrolPointPage() {
  const { t } = useTranslation('patrol');
  return (
    <div className="page-pad" data-testid="patrol-point-page">
      <PatrolNav />
      <Card size="small" title={t('nav.patrol-point')}>
        <PointsPanel />
      </Card>
    </div>
  );
}
