import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Progress, Select, Space, Table, Tag } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { errorCode } from '../../../shared/errors';
import { RangeFilter, type WallRange } from '../../../shared/time/RangePicker';
import { filterChoice, useTerminalChoices } from '../../../shared/directory/choices';
import type { Message } from '../../../shared/messages/record';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeToMs } from '../../../shared/time/range';
import { formatTime } from '../../../shared/time/zone';
import { directionOf, fetchAll, messageRows, reportApi, type SummaryLine } from '../api';
import { writeXlsx } from '../export';

interface Applied {
  msIds: string[];
  sTime: number;
  eTime: number;
}

/** /message-data: messages of a period per terminal, with a summary and an .xlsx export. */
export default function MessageDataPage() {
  const { t } = useTranslation('messagereport');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  useLiveDirectory();
  const terminalChoices = useTerminalChoices();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [range, setRange] = useState<WallRange>(() => defaultWallRange());
  const [applied, setApplied] = useState<Applied>(() => ({ msIds: [], ...rangeToMs(defaultWallRange()) }));
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [exporting, setExporting] = useState<number | null>(null);

  const q = useQuery({ queryKey: ['messagereport', applied, page], queryFn: () => reportApi.find({ ...applied, ...page }) });
  useEffect(() => {
    if (q.error) message.error(t('error', { code: errorCode(q.error) }));
  }, [q.error]); // eslint-disable-line react-hooks/exhaustive-deps

  const rangeError = checkWallRange(range, MONTH_DAYS);
  const search = () => {
    if (rangeError || !range) return;
    setApplied({ msIds, ...rangeToMs(range) });
    setPage((p) => ({ ...p, pageNo: 1 }));
  };

  const kinds = { text: t('kinds.text'), image: t('kinds.image'), file: t('kinds.file'), audio: t('kinds.audio'), video: t('kinds.video') };
  const states = { pending: t('states.pending'), partial: t('states.partial'), delivered: t('states.delivered') };

  const exportXlsx = async () => {
    setExporting(0);
    try {
      const all = await fetchAll(applied, undefined, (loaded, total) => setExporting(total ? Math.round((loaded / total) * 100) : 100));
      const rows = messageRows(all.list, { dispatchCenter: t('dispatchCenter'), kinds, states, read: t('read'), unread: t('unread'), format: (ms) => formatTime(ms, 'YYYY-MM-DD HH:mm:ss') });
      const stamp = formatTime(Date.now(), 'YYYYMMDD-HHmm');
      await writeXlsx(`message-data-${stamp}.xlsx`, [
        {
          name: t('summary'),
          columns: [
            { header: t('col.terminal'), key: 'terminal', width: 28 },
            { header: t('col.sent'), key: 'sent', width: 12 },
            { header: t('col.received'), key: 'received', width: 12 },
            { header: t('col.delivered'), key: 'delivered', width: 12 },
          ],
          rows: all.summary.map((s) => ({ terminal: s.msName ? `${s.msName} (${s.msId})` : s.msId, sent: s.sent, received: s.received, delivered: s.delivered })),
        },
        {
          name: t('messages'),
          columns: [
            { header: t('col.time'), key: 'time', width: 20 },
            { header: t('col.from'), key: 'from', width: 26 },
            { header: t('col.to'), key: 'to', width: 26 },
            { header: t('col.type'), key: 'type', width: 10 },
            { header: t('col.content'), key: 'content', width: 50 },
            { header: t('col.file'), key: 'file', width: 24 },
            { header: t('col.delivery'), key: 'delivery', width: 18 },
          ],
          rows,
        },
      ]);
      message.success(t('exported', { count: all.list.length }));
    } catch (e) {
      message.error(t('error', { code: errorCode(e) }));
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="page-pad" data-testid="message-data-page">
      <Card size="small" title={t('title')}>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('terminals')}
            value={msIds}
            onChange={setMsIds}
            options={terminalChoices}
            filterOption={filterChoice}
            style={{ minWidth: 280 }}
            maxTagCount="responsive"
            data-testid="msgdata-terminals"
          />
          <RangeFilter value={range} onChange={setRange} testid="msgdata-range" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} disabled={!!rangeError} data-testid="msgdata-search">
            {t('search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => void exportXlsx()} loading={exporting !== null} disabled={!q.data?.total && !q.data?.summary?.length} data-testid="msgdata-export">
            {t('export')}
          </Button>
          {exporting !== null && <Progress percent={exporting} size="small" style={{ width: 160 }} data-testid="msgdata-export-progress" />}
        </Space>
        <Table<SummaryLine>
          size="small"
          rowKey="msId"
          title={() => t('summary')}
          dataSource={q.data?.summary ?? []}
          loading={q.isLoading}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="msgdata-summary"
          columns={[
            { key: 'terminal', title: t('col.terminal'), render: (_, s) => `${trimText(s.msName || s.msId, 24)} (${s.msId})` },
            { key: 'sent', title: t('col.sent'), dataIndex: 'sent', width: 120 },
            { key: 'received', title: t('col.received'), dataIndex: 'received', width: 120 },
            { key: 'delivered', title: t('col.delivered'), dataIndex: 'delivered', width: 120 },
          ]}
          style={{ marginBottom: 16 }}
        />
        <Table<Message>
          size="small"
          rowKey="id"
          title={() => t('messages')}
          dataSource={q.data?.list ?? []}
          loading={q.isLoading}
          data-testid="msgdata-list"
          onRow={(m) => ({ 'data-testid': 'msgdata-row', 'data-id': m.id }) as object}
          pagination={{ current: page.pageNo, pageSize: page.pageSize, total: q.data?.total ?? 0, onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
          columns={[
            { key: 'time', title: t('col.time'), width: 170, render: (_, m) => formatTime(m.time, dateTime) },
            { key: 'from', title: t('col.from'), render: (_, m) => trimText(directionOf(m).from, 30) },
            { key: 'to', title: t('col.to'), render: (_, m) => trimText(directionOf(m).to || t('dispatchCenter'), 30) },
            { key: 'type', title: t('col.type'), width: 80, render: (_, m) => kinds[m.type] ?? m.type },
            { key: 'content', title: t('col.content'), render: (_, m) => <span style={{ whiteSpace: 'pre-wrap' }}>{m.content || m.file?.name}</span> },
            {
              key: 'delivery',
              title: t('col.delivery'),
              width: 150,
              render: (_, m) =>
                m.incoming ? (
                  <Tag color={Number(m.status) === 0 ? 'blue' : 'default'}>{Number(m.status) === 0 ? t('unread') : t('read')}</Tag>
                ) : (
                  <Tag color={m.state === 'delivered' ? 'success' : m.state === 'partial' ? 'gold' : 'warning'}>
                    {states[m.state ?? 'pending']} {m.delivered ?? 0}/{m.recipients ?? 0}
                  </Tag>
                ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
