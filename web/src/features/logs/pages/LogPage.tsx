import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, DatePicker, Input, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { useLiveStatus } from '../../../shared/socket/live';
import { LOG_TYPES, logListQuery, type LogEntry } from '../api';
import { LogPanel } from '../components/LogPanel';
import { LogText } from '../components/LogText';
import { useDateTimeFormat } from '../../../shared/branding/store';

/** /log and /log-child: the live feed, and a searchable history. */
export default function LogPage() {
  const { t } = useTranslation('logs');
  const status = useLiveStatus((s) => s.status);
  const dateTime = useDateTimeFormat();
  const [types, setTypes] = useState<number[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [account, setAccount] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const q = useQuery(
    logListQuery({
      ...page,
      type: types.length ? types.join(',') : undefined,
      stime: range?.[0].valueOf(),
      etime: range?.[1].valueOf(),
      account: account || undefined,
    }),
  );

  return (
    <div className="page-pad" data-testid="log-page" data-socket={status}>
      <Card size="small" title={t('live')} style={{ marginBottom: 16 }}>
        <LogPanel height={220} />
      </Card>
      <Card size="small" title={t('history')}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('filterType')}
            style={{ minWidth: 240 }}
            value={types}
            onChange={setTypes}
            options={LOG_TYPES.map((n) => ({ value: n, label: t(`types.${n}`) }))}
            maxTagCount={2}
          />
          <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)} />
          <Input.Search placeholder={t('filterAccount')} allowClear onSearch={setAccount} style={{ width: 200 }} />
        </Space>
        <Table<LogEntry>
          size="small"
          rowKey="id"
          loading={q.isLoading}
          dataSource={q.data?.list ?? []}
          pagination={{ current: page.pageNo, pageSize: page.pageSize, total: q.data?.total ?? 0, onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
          columns={[
            { key: 'date', title: t('col.date'), render: (_, e) => dayjs(typeof e.date === 'number' ? e.date : Date.parse(e.date)).format(dateTime), width: 180 },
            { key: 'type', title: t('col.type'), render: (_, e) => t(`types.${e.type}`, { defaultValue: t('types.unknown', { type: e.type }) }), width: 200 },
            { key: 'name', title: t('col.name'), dataIndex: 'name' },
            { key: 'account', title: t('col.account'), dataIndex: 'account', width: 120 },
            { key: 'remark', title: t('col.remark'), render: (_, e) => <LogText entry={e} /> },
          ]}
        />
      </Card>
    </div>
  );
}
