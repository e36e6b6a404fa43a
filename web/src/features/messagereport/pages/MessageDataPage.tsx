// /message-data: messages of a period per terminal (POST findMessageData), with a summary and an .xlsx export.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Progress, Tag } from 'antd';
import { trimText } from '../../../shared/utils/text';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import type { Message } from '../../../shared/messages/record';
import { MONTH_DAYS } from '../../../shared/time/range';
import { formatTime } from '../../../shared/time/zone';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { QueryTable } from '../../../shared/table/QueryTable';
import { directionOf, fetchAll, messageKeys, messageRows, reportApi, type SummaryLine } from '../api';
import { writeXlsx } from '../export';

export default function MessageDataPage() {
  const { t } = useTranslation('messagereport');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  useLiveDirectory();
  const [msIds, setMsIds] = useState<string[]>([]);
  const search = useReportSearch({ msIds: [] as string[] }, { maxDays: MONTH_DAYS });
  const { query, page } = search;
  const [exporting, setExporting] = useState<number | null>(null);

  const q = useQuery({ queryKey: messageKeys.find(query, page), queryFn: () => reportApi.find({ ...query, ...page }) });

  const kinds = { text: t('kinds.text'), image: t('kinds.image'), file: t('kinds.file'), audio: t('kinds.audio'), video: t('kinds.video') };
  const states = { pending: t('states.pending'), partial: t('states.partial'), delivered: t('states.delivered') };

  const exportXlsx = async () => {
    setExporting(0);
    try {
      const all = await fetchAll(query, undefined, (loaded, total) => setExporting(total ? Math.round((loaded / total) * 100) : 100));
      const rows = messageRows(all.list, { dispatchCenter: t('dispatchCenter'), kinds, states, read: t('read'), unread: t('unread'), format: (ms) => formatTime(ms, 'YYYY-MM-DD HH:mm:ss') });
      await writeXlsx(`message-data-${formatTime(Date.now(), 'YYYYMMDD-HHmm')}.xlsx`, [
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
    } finally {
      setExporting(null);
    }
  };

  return (
    <ReportShell
      ns="messagereport"
      title={t('title')}
      testId="message-data-page"
      search={search}
      error={q.error}
      filters={<TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 280 }} value={msIds} onChange={setMsIds} placeholder={t('terminals')} testId="msgdata-terminals" />}
      onSearch={() => search.apply({ msIds })}
      onExport={exportXlsx}
      exportDisabled={!q.data?.total && !q.data?.summary?.length}
      testIds={{ search: 'msgdata-search', export: 'msgdata-export' }}
      note={exporting !== null && <Progress percent={exporting} size="small" style={{ width: 160 }} data-testid="msgdata-export-progress" />}
    >
      <QueryTable<SummaryLine>
        query={q}
        rows={q.data?.summary ?? []}
        rowKey="msId"
        title={() => t('summary')}
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
      <QueryTable<Message>
        query={q}
        title={() => t('messages')}
        data-testid="msgdata-list"
        row={(m) => ({ 'data-testid': 'msgdata-row', 'data-id': m.id })}
        pagination={search.pagination(q.data?.total ?? 0)}
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
    </ReportShell>
  );
}
