// /patrol-plan: plans with their classes, and the routes they walk (route editor).
import { useTranslation } from 'react-i18next';
import { Card, Tabs } from 'antd';
import { PatrolNav } from '../components/PatrolNav';
import { PlansPanel } from '../components/PlansPanel';
import { RoutesPanel } from '../components/RoutesPanel';
import { useLivePatrol } from '../useLivePatrol';

export default function PatrolPlanPage() {
  const { t } = useTranslation('patrol');
  useLivePatrol();
  return (
    <div className="page-pad" data-testid="patrol-plan-page">
      <PatrolNav />
      <Card size="small">
        <Tabs
          items={[
            { key: 'plans', label: t('tabs.plans'), children: <PlansPanel /> },
            { key: 'routes', label: t('tabs.routes'), children: <RoutesPanel /> },
          ]}
        />
      </Card>
    </div>
  );
}
