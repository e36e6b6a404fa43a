// /online (+ child): online time per terminal over a range (POST findOnlineDurationPost), a terminal's
// online/offline intervals (GET findOnlineDetailData), charts and the .xlsx export.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Drawer, Statistic, Tag } from 'antd';
import { useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { MONTH_DAYS } from '../../../shared/time/range';
import { clock, formatZoned } from '../../../shared/time/zone';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { dayBars, rangeDays, rankBars } from '../../../shared/report/charts';
import { activityApi, activityKeys, hours, onlinePerDay, onlineShare, type OnlineInterval, type OnlineRow } from '../api';
import { QueryTable } from '../../../shared/table/QueryTable';

export default function OnlinePage() {
  const { t } = useTranslation('activityreport');
  const dateTime = useDateTimeFormat();
  const terminals = useTerminalFilter(t('filter.terminals'));
  const search = useReportSearch({ msIds: [] as string[] }, { maxDays: MONTH_DAYS });
  const { query } = search;
  const [detailOf, setDetailOf] = useState<OnlineRow | null>(null);
  const q = useQuery({ queryKey: activityKeys.online(query), queryFn: () => activityApi.online(query) });
  const detail = useQuery({
    queryKey: activityKeys.detail(detailOf?.msId ?? '', query.sTime, query.eTime),
    queryFn: () => activityApi.onlineDetail(detailOf!.msId, query.sTime, query.eTime),
    enabled: !!detailOf,
  });
  const rows = useMemo(() => q.data?.list ?? [], [q.data]);
  const days = useMemo(
    () => onlinePerDay(rows, rangeDays(query)),
    [rows, query],
  );
  const totalMs = rows.reduce((a, r) => a + r.onlineMs, 0);
  // Options made once per answer: a new option redraws its chart.
  const charts = useMemo(() => {
    const top = rows.slice(0, 15);
    return [
      { testId: 'chart-day', title: t('online.perDay'), xl: 14, option: dayBars(days.map((d) => d.day), [{ name: t('col.onlineTime'), color: '#13a8a8', data: days.map((d) => hours(d.onlineMs)) }], t('unit.hours')) },
      { testId: 'chart-terminal', title: t('online.perTerminal'), xl: 10, option: rankBars(top.map((x) => `${x.msName} (${x.msId})`), [{ name: t('col.onlineTime'), color: '#1677ff', data: top.map((x) => hours(x.onlineMs)) }], t('unit.hours')) },
    ];
  }, [days, rows, t]);

  const doExport = () =>
    writeStampedXlsx(t('export.onlineFile'), [
      {
        name: t('export.summarySheet'),
        columns: [
          { header: t('col.terminalId'), key: 'msId', width: 12 },
          { header: t('col.terminal'), key: 'msName', width: 22 },
          { header: t('col.onlineTime'), key: 'time', width: 14 },
          { header: t('col.onlineHours'), key: 'hours', width: 12 },
          { header: t('col.share'), key: 'share', width: 12 },
          { header: t('col.sessions'), key: 'sessions', width: 10 },
        ],
        rows: rows.map((r) => ({ msId: r.msId, msName: r.msName, time: clock(r.onlineMs), hours: hours(r.onlineMs), share: onlineShare(r.onlineMs, query.sTime, query.eTime), sessions: r.sessions })),
      },
      {
        name: t('export.daySheet'),
        columns: [
          { header: t('col.day'), key: 'day', width: 12 },
          { header: t('col.terminalId'), key: 'msId', width: 12 },
          { header: t('col.terminal'), key: 'msName', width: 22 },
          { header: t('col.onlineTime'), key: 'time', width: 14 },
          { header: t('col.onlineHours'), key: 'hours', width: 12 },
        ],
        rows: rows.flatMap((r) => r.days.map((d) => ({ day: d.day, msId: r.msId, msName: r.msName, time: clock(d.onlineMs), hours: hours(d.onlineMs) }))),
      },
    ]);

  return (
    <ReportShell
      ns="activityreport"
      title={t('online.title')}
      testId="online-page"
      data={{ 'data-rows': rows.length, 'data-total-ms': totalMs, 'data-loading': q.isFetching ? '1' : '0' }}
      search={search}
      error={q.error}
      filters={terminals.picker}
      onSearch={() => search.apply({ msIds: terminals.ids })}
      onExport={doExport}
      exportDisabled={!rows.length}
      stats={[
        { key: 'terminals', title: t('online.terminals'), value: rows.length },
        { key: 'everOnline', title: t('online.everOnline'), value: rows.filter((r) => r.onlineMs > 0).length },
        { key: 'total', title: t('online.totalTime'), value: hours(totalMs), suffix: t('unit.h') },
      ]}
      charts={charts}
    >
      <QueryTable<OnlineRow>
        query={q}
        rowKey="msId"
        rows={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        row={(r) => ({ 'data-testid': 'online-row', 'data-ms-id': r.msId, 'data-online-ms': r.onlineMs })}
        columns={[
          { key: 'ms', title: t('col.terminal'), render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
          { key: 'time', title: t('col.onlineTime'), render: (_, r) => clock(r.onlineMs), width: 130, sorter: (a, b) => a.onlineMs - b.onlineMs },
          { key: 'share', title: t('col.share'), render: (_, r) => `${onlineShare(r.onlineMs, query.sTime, query.eTime)} %`, width: 110 },
          { key: 'sessions', title: t('col.sessions'), dataIndex: 'sessions', width: 100 },
          {
            key: 'detail',
            width: 110,
            render: (_, r) => (
              <Button size="small" type="link" onClick={() => setDetailOf(r)} data-testid="online-detail">
                {t('online.detail')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer open={!!detailOf} onClose={() => setDetailOf(null)} width={560} title={detailOf ? t('online.detailTitle', { name: `${detailOf.msName} (${detailOf.msId})` }) : ''}>
        <div data-testid="online-intervals" data-count={detail.data?.list.length ?? 0}>
          <Statistic title={t('col.onlineTime')} value={clock(detail.data?.onlineMs ?? 0)} style={{ marginBottom: 12 }} />
          <QueryTable<OnlineInterval>
            query={detail}
            rowKey={(r) => String(r.online)}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { key: 'on', title: t('col.online'), render: (_, r) => formatZoned(r.online, dateTime) },
              { key: 'off', title: t('col.offline'), render: (_, r) => (r.offline ? formatZoned(r.offline, dateTime) : <Tag color="green">{t('online.stillOnline')}</Tag>) },
              { key: 'dur', title: t('col.duration'), render: (_, r) => clock(r.durationMs), width: 110 },
            ]}
          />
        </div>
      </Drawer>
    </ReportShell>
  );
}
