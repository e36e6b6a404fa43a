// Order logs (tbOrderLog/list): every punch, newest first, in a time range (spec §5 rules), by terminal and state.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Select, Space, Tag } from 'antd';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatZoned, wallNow, wallToMs } from '../../../shared/time/zone';
import { patrolApi, patrolKeys, LOG_STATES, type OrderLog } from '../api';
import { useErrorText } from '../../../shared/errorText';
import { PatrollerSelect } from './PatrollerSelect';
import { QueryTable } from '../../../shared/table/QueryTable';

const LOG_COLOR: Record<number, string> = { 1: 'green', 2: 'orange', 3: 'default', 4: 'purple' };

export function LogsPanel() {
  const { t } = useTranslation('patrol');
  const errorText = useErrorText('patrol');
  const fmt = useDateTimeFormat();
  const [days, setDays] = useState<[Dayjs, Dayjs]>(() => [wallNow().startOf('day'), wallNow().endOf('day')]);
  const [state, setState] = useState<number>();
  const [msId, setMsId] = useState<string>();
  const q = { startTime: wallToMs(days[0].startOf('day')), endTime: wallToMs(days[1].endOf('day')), state, msId };
  const logs = useQuery({ queryKey: patrolKeys.logs(q), queryFn: () => patrolApi.logs(q) });
  return (
    <div data-testid="patrol-logs">
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker value={days} allowClear={false} onChange={(v) => v?.[0] && v[1] && setDays([v[0], v[1]])} />
        <Select allowClear placeholder={t('fields.state')} style={{ width: 170 }} value={state} onChange={setState} options={LOG_STATES.map((s) => ({ value: s, label: t(`logState.${s}`) }))} />
        <PatrollerSelect allowClear value={msId} onChange={setMsId} />
      </Space>
      {logs.error && <p style={{ color: '#cf1322' }}>{errorText(logs.error)}</p>}
      <QueryTable<OrderLog>
        query={logs}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        row={(r) => ({ 'data-testid': 'log-row', 'data-state': r.state })}
        columns={[
          { title: t('fields.time'), dataIndex: 'time', render: (v: number) => formatZoned(v, fmt) },
          { title: t('fields.patroller'), key: 'ms', render: (_, r) => r.msName || r.msId },
          { title: t('fields.point'), dataIndex: 'pointName' },
          { title: t('fields.method'), dataIndex: 'method', render: (m: string) => t(`method.${m}`) },
          { title: t('fields.state'), dataIndex: 'state', render: (s: number) => <Tag color={LOG_COLOR[s]}>{t(`logState.${s}`)}</Tag> },
          { title: t('fields.order'), dataIndex: 'orderId', render: (v: number) => (v ? `#${v}` : '—') },
        ]}
      />
    </div>
  );
}
