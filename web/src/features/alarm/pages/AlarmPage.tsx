// /alarm and /alarm-child (SOS management): the alarms open now (live) and the alarm history.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Badge, Button, Card, Space, Tabs } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import { ReloadOutlined } from '@ant-design/icons';
import { useLiveStatus } from '../../../shared/socket/live';
import { useDateTimeFormat } from '../../../shared/branding/store';
import type { SosAlarm } from '../../../shared/alarms/sos';
import { useAlarmErrorText } from '../errors';
import { useIsChild } from '../hooks';
import { openAlarms } from '../../../shared/alarms/queue';
import { loadOpen, useAlarms } from '../../../shared/alarms/store';
import { sosActionsColumn } from '../components/SosRowActions';
import { alarmColumns } from '../components/alarmColumns';
import { AlarmHistory } from '../components/AlarmHistory';
import { CloseDialog } from '../components/CloseDialog';

export default function AlarmPage() {
  const { t } = useTranslation('alarm');
  const status = useLiveStatus((s) => s.status);
  const sos = useAlarms((s) => s.sos);
  const open = useMemo(() => openAlarms({ sos } as Parameters<typeof openAlarms>[0]), [sos]);
  const [tab, setTab] = useState('open');

  useEffect(() => {
    void loadOpen();
  }, []);

  return (
    <div className="page-pad" data-testid="alarm-page" data-socket={status}>
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          destroyOnHidden={false}
          items={[
            {
              key: 'open',
              label: (
                <Space size={6}>
                  {t('page.open')}
                  <Badge count={open.length} showZero={false} data-testid="open-count" />
                </Space>
              ),
              children: <OpenAlarms list={open} />,
            },
            { key: 'history', label: t('page.history'), children: <AlarmHistory actions testId="alarm-history" /> },
          ]}
        />
      </Card>
    </div>
  );
}

function OpenAlarms({ list }: { list: SosAlarm[] }) {
  const { t } = useTranslation('alarm');
  const errorText = useAlarmErrorText();
  const { message } = App.useApp();
  const child = useIsChild();
  const dateTime = useDateTimeFormat();
  const [closing, setClosing] = useState<SosAlarm | null>(null);
  const fail = (e: unknown) => {
    message.error(errorText(e));
  };
  const columns = [
    ...alarmColumns(t, dateTime).filter((c) => !['closer', 'closeTime', 'closeKind', 'remark'].includes(String(c.key))),
    sosActionsColumn(t, { testId: 'open', child, onClose: setClosing, fail }, list),
  ];
  return (
    <div data-testid="open-alarms" data-count={list.length}>
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void loadOpen()}>
          {t('page.reload')}
        </Button>
      </Space>
      <DataTable<SosAlarm>
        rowKey="id"
        dataSource={list}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('page.noneOpen') }}
        onRow={(a) => ({ 'data-testid': 'open-row', 'data-id': a.id, 'data-state': a.state }) as React.HTMLAttributes<HTMLElement>}
      />
      <CloseDialog alarm={closing} onClose={() => setClosing(null)} />
    </div>
  );
}
