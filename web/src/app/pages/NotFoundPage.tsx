import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../shared/access/routes';

export default function NotFoundPage() {
  const { t } = useTranslation('app');
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('notFound')}
      data-testid="not-found"
      extra={<Button type="primary" onClick={() => navigate(HOME_PATH)}>{t('backHome')}</Button>}
    />
  );
}
