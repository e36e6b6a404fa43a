// /job-tick-data (+ child): job tickets by terminal and state over a time range (POST findJobReport, spec §5 time
// rules), with .xlsx export, on the report shell.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Table } from 'antd';
import { useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { jobApi, jobKeys, type ReportRow } from '../api';
import { QueryTable } from '../../../shared/table/QueryTable';

const COUNTS = ['unsettled', 'accepted', 'rejected', 'working', 'over'] as const;

const NO_TICKETS = { list: [], total: { msId: '', msName: '', total: 0, unsettled: 0, accepted: 0, rejected: 0, working: 0, over: 0 } };

export default function JobTickDataPage() {
  const { t } = useTranslation('jobs');
  const dateTime = useDateTimeFormat();
  const terminals = useTerminalFilter(t('filter.terminals'));
  const search = useReportSearch({ msIds: undefined as string | undefined });
  const { query } = search;
  const q = useQuery({ queryKey: jobKeys.report(query), queryFn: () => jobApi.report(query), placeholderData: keepPreviousData });
  const data = q.data ?? NO_TICKETS;

  const doExport = () =>
    writeStampedXlsx(t('report.file'), [
      {
        name: t('report.sheet'),
        columns: [
          { header: t('report.col.terminalId'), key: 'msId', width: 12 },
          { header: t('report.col.terminal'), key: 'msName', width: 20 },
          { header: t('report.col.total'), key: 'total', width: 10 },
          ...COUNTS.map((c, i) => ({ header: t(`state.${i}`), key: c, width: 12 })),
        ],
        rows: [
          ...data.list.map((r) => ({ ...r })),
          { ...data.total, msId: '', msName: t('report.sum') },
          { msId: '', msName: `${t('report.range')}: ${formatZoned(query.sTime, dateTime)} – ${formatZoned(query.eTime, dateTime)}` },
        ],
      },
    ]);

  return (
    <ReportShell
      ns="jobs"
      title={t('report.title')}
      testId="job-tick-data-page"
      data={{ 'data-total': data.total.total, 'data-loading': q.isFetching ? '1' : '0' }}
      search={search}
      error={q.error}
      filters={terminals.picker}
      onSearch={() => search.apply({ msIds: terminals.joined })}
      onExport={doExport}
      exportDisabled={!data.list.length}
      testIds={{ search: 'job-report-search', export: 'job-report-export' }}
    >
      <QueryTable<ReportRow>
        query={q}
        rowKey="msId"
        rows={data.list}
        pagination={false}
        row={(r) => ({ 'data-testid': 'job-report-row', 'data-ms': r.msId, 'data-total': r.total })}
        columns={[
          { key: 'ms', title: t('report.col.terminal'), render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
          { key: 'total', title: t('report.col.total'), dataIndex: 'total', width: 90 },
          ...COUNTS.map((c, i) => ({ key: c, title: t(`state.${i}`), dataIndex: c, width: 100 })),
        ]}
        summary={() =>
          data.list.length > 0 && (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>
                <strong>{t('report.sum')}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1}>{data.total.total}</Table.Summary.Cell>
              {COUNTS.map((c, i) => (
                <Table.Summary.Cell key={c} index={i + 2}>
                  {data.total[c]}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          )
        }
      />
    </ReportShell>
  );
}
