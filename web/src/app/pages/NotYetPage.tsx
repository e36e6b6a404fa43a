import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Screen } from '../../shared/access/routes';

/** An honest placeholder for screens later issues build: the route, guard and menu entry are real. */
export default function NotYetPage({ screen }: { screen: Screen }) {
  const { t } = useTranslation('app');
  return (
    <Result
      status="info"
      title={t(`menu.${screen}`)}
      subTitle={t('notYet')}
      data-testid="not-yet"
      data-screen={screen}
    />
  );
}
