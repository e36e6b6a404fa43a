// /patrol-sys: the full patrol administration — areas, users, points, routes, plans, orders and order logs. The
// route skips the console's token check (spec §2): without a console session it asks for the PoC account
// (sysUsers/login) and keeps it for the "1011" rule.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Form, Input, Space, Tabs } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { canCallPatrol, signInPatrol, signOutPatrol, type Credentials } from '../client';
import { AreasPanel } from '../components/AreasPanel';
import { useErrorText } from '../../../shared/errorText';
import { LogsPanel } from '../components/LogsPanel';
import { OrdersPanel } from '../components/OrdersPanel';
import { PlansPanel } from '../components/PlansPanel';
import { PointsPanel } from '../components/PointsPanel';
import { RoutesPanel } from '../components/RoutesPanel';
import { UsersPanel } from '../components/UsersPanel';
import { useLivePatrol } from '../useLivePatrol';

export default function PatrolSysPage() {
  const { t } = useTranslation('patrol');
  const [ready, setReady] = useState<boolean | null>(null);
  useEffect(() => {
    void canCallPatrol().then(setReady);
  }, []);
  if (ready === null) return null;
  if (!ready) return <PatrolSignIn onDone={() => setReady(true)} />;
  return (
    <div className="page-pad" data-testid="patrol-sys-page">
      <Card
        size="small"
        title={t('nav.patrol-sys')}
        extra={
          <Button
            size="small"
            icon={<LogoutOutlined />}
            onClick={() => {
              signOutPatrol();
              void canCallPatrol().then(setReady);
            }}
          >
            {t('sys.signOut')}
          </Button>
        }
      >
        <SysTabs />
      </Card>
    </div>
  );
}

function SysTabs() {
  const { t } = useTranslation('patrol');
  useLivePatrol();
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'areas', label: t('tabs.areas'), children: <AreasPanel /> },
        { key: 'users', label: t('tabs.users'), children: <UsersPanel /> },
        { key: 'points', label: t('tabs.points'), children: <PointsPanel /> },
        { key: 'routes', label: t('tabs.routes'), children: <RoutesPanel /> },
        { key: 'plans', label: t('tabs.plans'), children: <PlansPanel /> },
        { key: 'orders', label: t('tabs.orders'), children: <OrdersPanel /> },
        { key: 'logs', label: t('tabs.logs'), children: <LogsPanel /> },
      ]}
    />
  );
}

function PatrolSignIn({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('patrol');
  const errorText = useErrorText('patrol');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const submit = async (v: Credentials) => {
    setBusy(true);
    try {
      await signInPatrol({ username: v.username.trim(), password: v.password });
      onDone();
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page-pad" data-testid="patrol-signin">
      <Card size="small" title={t('sys.signIn')} style={{ maxWidth: 380, margin: '40px auto' }}>
        <Form<Credentials> layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item name="username" label={t('sys.account')} rules={[{ required: true, message: t('rules.required') }]}>
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('sys.password')} rules={[{ required: true, message: t('rules.required') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy}>
              {t('sys.signIn')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
