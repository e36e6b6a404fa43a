// The patrol screens' tabs (spec §2: /patrol-statistic, /patrol-point, /patrol-plan, /patrol-calendar) and the
// full administration (/patrol-sys).
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, Segmented, Space } from 'antd';
import { SettingOutlined } from '@ant-design/icons';

const TABS = ['/patrol-statistic', '/patrol-point', '/patrol-plan', '/patrol-calendar'] as const;

export function PatrolNav() {
  const { t } = useTranslation('patrol');
  const nav = useNavigate();
  const { pathname } = useLocation();
  return (
    <Space wrap style={{ marginBottom: 12 }} data-testid="patrol-nav">
      <Segmented
        value={TABS.find((p) => pathname.startsWith(p)) ?? TABS[0]}
        onChange={(v) => void nav(String(v))}
        options={TABS.map((p) => ({ value: p, label: t(`nav.${p.slice(1)}`) }))}
      />
      <Button icon={<SettingOutlined />} onClick={() => void nav('/patrol-sys')} data-testid="patrol-sys-link">
        {t('nav.patrol-sys')}
      </Button>
    </Space>
  );
}
