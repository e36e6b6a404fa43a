import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Input, Select } from 'antd';
import { useLiveStatus } from '../../../shared/socket/live';
import { useDateTimeFormat } from '../../../shared/branding/store';
import dayjs from '../../../shared/utils/dayjs';
import { ReportShell, useLiveReport } from '../../../shared/report/ReportShell';
import { commaList } from '../../../shared/report/TerminalFilter';
import { LOG_TYPES, logListQuery, type LogEntry } from '../api';
import { LogPanel } from '../components/LogPanel';
import { LogText } from '../components/LogText';
import { QueryTable } from '../../../shared/table/QueryTable';

/** /log and /log-child: the live feed, and a history that follows its filters (any range, or none: everything). */
export default function LogPage() {
  const { t } = useTranslation('logs');
  const status = useLiveStatus((s) => s.status);
  const dateTime = useDateTimeFormat();
  const search = useLiveReport({ types: [] as number[], account: '' });
  const { filter, query, page } = search;
  const q = useQuery(
    logListQuery({
      ...page,
      type: commaList(filter.types),
      stime: query.sTime,
      etime: query.eTime,
      account: filter.account || undefined,
    }),
  );

  return (
    <ReportShell
      ns="logs"
      title={t('history')}
      testId="log-page"
      data={{ 'data-socket': status }}
      above={
        <Card size="small" title={t('live')} style={{ marginBottom: 16 }}>
          <LogPanel height={220} />
        </Card>
      }
      search={search}
      error={q.error}
      filters={
        <>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('filterType')}
            style={{ minWidth: 240 }}
            value={filter.types}
            onChange={(types) => search.change({ types })}
            options={LOG_TYPES.map((n) => ({ value: n, label: t(`types.${n}`) }))}
            maxTagCount={2}
          />
          <Input.Search placeholder={t('filterAccount')} allowClear onSearch={(account) => search.change({ account })} style={{ width: 200 }} />
        </>
      }
    >
      <QueryTable<LogEntry>
        query={q}
        pagination={search.pagination(q.data?.total ?? 0)}
        columns={[
          // One line a row (issue 33): text cut with an ellipsis keeps its whole as the cell's title; the remark,
          // the long one, takes what is left and has its tooltip (LogText).
          { key: 'date', title: t('col.date'), render: (_, e) => dayjs(typeof e.date === 'number' ? e.date : Date.parse(e.date)).format(dateTime), width: 170, ellipsis: true },
          { key: 'type', title: t('col.type'), render: (_, e) => t(`types.${e.type}`, { defaultValue: t('types.unknown', { type: e.type }) }), width: 240, ellipsis: true },
          { key: 'name', title: t('col.name'), dataIndex: 'name', width: 160, ellipsis: true },
          { key: 'account', title: t('col.account'), dataIndex: 'account', width: 110, ellipsis: true },
          { key: 'remark', title: t('col.remark'), render: (_, e) => <LogText entry={e} />, width: 300, ellipsis: { showTitle: false } },
        ]}
      />
    </ReportShell>
  );
}
