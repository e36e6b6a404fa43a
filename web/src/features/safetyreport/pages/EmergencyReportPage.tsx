// /emergcy-alarm-report (+ child): SOS alarm statistics per day and per terminal (POST findSosReport), charts,
// the table and .xlsx export.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Table } from 'antd';
import { sosApi, sosKeys, type SosReportRow } from '../../../shared/alarms/sos';
import { useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { clock } from '../../../shared/time/zone';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { dayBars, rangeDays, rankBars } from '../../../shared/report/charts';
import { byDay, byTerminal } from '../aggregate';

const ms = (v: number) => (v ? clock(v) : '—');
const SERIES_COLOR = { sending: '#ff4d4f', acknowledged: '#faad14', closed: '#52c41a', canceled: '#8c8c8c' } as const;

export default function EmergencyReportPage() {
  const { t } = useTranslation('safetyreport');
  const terminalFilter = useTerminalFilter(t('filter.terminals'));
  const search = useReportSearch({ msIds: undefined as string | undefined });
  const { query } = search;
  const q = useQuery({ queryKey: sosKeys.report(query), queryFn: () => sosApi.report(query) });
  const rows = useMemo(() => q.data?.list ?? [], [q.data]);
  const days = useMemo(() => {
    const totals = new Map(byDay(rows).map((d) => [d.day, d.totals]));
    const all = rangeDays(query);
    return all.map((day) => ({ day, totals: totals.get(day) }));
  }, [rows, query]);
  const terminals = useMemo(() => byTerminal(rows), [rows]);
  const sum = useMemo(() => rows.reduce((a, r) => ({ total: a.total + r.total, sending: a.sending + r.sending, canceled: a.canceled + r.canceled, max: Math.max(a.max, r.maxResponse) }), { total: 0, sending: 0, canceled: 0, max: 0 }), [rows]);

  // Options made once per answer: a new option redraws its chart.
  const charts = useMemo(() => {
    const state = (key: 'sending' | 'acknowledged' | 'closed' | 'canceled') => ({
      name: t(`series.${key}`),
      color: SERIES_COLOR[key],
      stack: key === 'canceled' ? undefined : 'state',
      data: days.map((d) => d.totals?.[key] ?? 0),
    });
    const top = terminals.slice(0, 15);
    return [
      { testId: 'chart-day', title: t('report.perDay'), xl: 14, option: dayBars(days.map((d) => d.day), [state('sending'), state('acknowledged'), state('closed'), state('canceled')]) },
      { testId: 'chart-terminal', title: t('report.perTerminal'), xl: 10, option: rankBars(top.map((x) => `${x.msName} (${x.msId})`), [{ name: t('series.total'), color: '#ff4d4f', data: top.map((x) => x.totals.total) }], undefined, 130) },
    ];
  }, [days, terminals, t]);

  const columns = [
    { key: 'day', title: t('col.day'), dataIndex: 'day', width: 110 },
    { key: 'ms', title: t('col.terminal'), render: (_: unknown, r: SosReportRow) => `${r.msName || r.msId} (${r.msId})` },
    { key: 'total', title: t('series.total'), dataIndex: 'total', width: 80 },
    { key: 'sending', title: t('series.sending'), dataIndex: 'sending', width: 90 },
    { key: 'ack', title: t('series.acknowledged'), dataIndex: 'acknowledged', width: 110 },
    { key: 'closed', title: t('series.closed'), dataIndex: 'closed', width: 90 },
    { key: 'canceled', title: t('series.canceled'), dataIndex: 'canceled', width: 110 },
    { key: 'avg', title: t('col.avgResponse'), render: (_: unknown, r: SosReportRow) => ms(r.avgResponse), width: 130 },
    { key: 'max', title: t('col.maxResponse'), render: (_: unknown, r: SosReportRow) => ms(r.maxResponse), width: 130 },
  ];

  const doExport = () =>
    writeStampedXlsx(t('export.reportFile'), [{
      name: t('export.reportSheet'),
      columns: [
        { header: t('col.day'), key: 'day', width: 12 },
        { header: t('col.terminalId'), key: 'msId', width: 12 },
        { header: t('col.terminal'), key: 'msName', width: 20 },
        { header: t('series.total'), key: 'total', width: 10 },
        { header: t('series.sending'), key: 'sending', width: 10 },
        { header: t('series.acknowledged'), key: 'acknowledged', width: 14 },
        { header: t('series.closed'), key: 'closed', width: 10 },
        { header: t('series.canceled'), key: 'canceled', width: 14 },
        { header: t('col.avgResponse'), key: 'avg', width: 16 },
        { header: t('col.maxResponse'), key: 'max', width: 16 },
      ],
      rows: rows.map((r) => ({ day: r.day, msId: r.msId, msName: r.msName, total: r.total, sending: r.sending, acknowledged: r.acknowledged, closed: r.closed, canceled: r.canceled, avg: ms(r.avgResponse), max: ms(r.maxResponse) })),
    }]);

  return (
    <ReportShell
      ns="safetyreport"
      title={t('report.title')}
      testId="emergency-report-page"
      data={{ 'data-rows': rows.length, 'data-loading': q.isFetching ? '1' : '0' }}
      search={search}
      error={q.error}
      filters={terminalFilter.picker}
      onSearch={() => search.apply({ msIds: terminalFilter.joined })}
      onExport={doExport}
      exportDisabled={!rows.length}
      stats={[
        { key: 'total', title: t('series.total'), value: sum.total },
        { key: 'sending', title: t('series.sending'), value: sum.sending, alert: sum.sending > 0 },
        { key: 'canceled', title: t('series.canceled'), value: sum.canceled },
        { key: 'max', title: t('col.maxResponse'), value: ms(sum.max) },
      ]}
      charts={charts}
    >
      <Table<SosReportRow> size="small" rowKey={(r) => `${r.msId}-${r.day}`} loading={q.isLoading} dataSource={rows} columns={columns} pagination={{ pageSize: 20, hideOnSinglePage: true }} />
    </ReportShell>
  );
}
