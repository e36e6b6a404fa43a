// /patrol-statistic: planned, normal, abnormal and waiting orders per area, route, person or day over a range,
// with the abnormal orders' reasons, as a table and ECharts bars (computed from tbPatrolOrder/list).
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Table } from 'antd';
import { defaultWallRange } from '../../../shared/time/range';
import { formatTime } from '../../../shared/time/zone';
import { ReportShell, someRange, useLiveReport } from '../../../shared/report/ReportShell';
import { patrolApi, patrolKeys, REASONS } from '../api';
import { Chart } from '../../../shared/charts/Chart';
import { PatrolNav } from '../components/PatrolNav';
import { GROUP_BYS, normalRate, statistics, type GroupBy, type StatRow } from '../stats';
import { useLivePatrol } from '../useLivePatrol';
import { QueryTable } from '../../../shared/table/QueryTable';

export default function PatrolStatisticPage() {
  const { t } = useTranslation('patrol');
  useLivePatrol();
  // Days of any range (this month first), across months too: the orders are counted here, not by a report query.
  const search = useLiveReport({ by: 'area' as GroupBy }, { rule: someRange, range: defaultWallRange });
  const { by } = search.filter;
  const q = { startDate: formatTime(search.query.sTime, 'YYYY-MM-DD'), endDate: formatTime(search.query.eTime, 'YYYY-MM-DD') };
  const orders = useQuery({ queryKey: patrolKeys.orders(q), queryFn: () => patrolApi.orders(q) });
  const { rows, total } = useMemo(() => statistics(orders.data?.list ?? [], by), [orders.data, by]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: {},
      grid: { left: 40, right: 20, bottom: 60, top: 40 },
      xAxis: { type: 'category', data: rows.map((r) => r.label), axisLabel: { rotate: rows.length > 8 ? 30 : 0 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('state.1'), type: 'bar', stack: 'o', data: rows.map((r) => r.normal), itemStyle: { color: '#52c41a' } },
        { name: t('state.2'), type: 'bar', stack: 'o', data: rows.map((r) => r.abnormal), itemStyle: { color: '#f5222d' } },
        { name: t('state.0'), type: 'bar', stack: 'o', data: rows.map((r) => r.waiting), itemStyle: { color: '#1677ff' } },
        ...REASONS.map((why, i) => ({ name: t(`reason.${why}`), type: 'bar', data: rows.map((r) => r.reasons[why]), itemStyle: { color: ['#fa8c16', '#faad14', '#722ed1'][i] } })),
      ],
    }),
    [rows, t],
  );
  const rate = (r: StatRow) => {
    const v = normalRate(r);
    return v === undefined ? '—' : `${v} %`;
  };
  return (
    <ReportShell
      ns="patrol"
      title={t('statistic.title')}
      testId="patrol-statistic-page"
      above={<PatrolNav />}
      search={search}
      error={orders.error}
      filters={<Segmented value={by} onChange={(v) => search.change({ by: v as GroupBy })} options={GROUP_BYS.map((g) => ({ value: g, label: t(`statistic.by.${g}`) }))} data-testid="statistic-by" />}
    >
      <Chart option={option} testId="statistic-chart" />
      <QueryTable<StatRow>
        query={orders}
        rowKey="key"
        rows={rows}
        pagination={false}
        row={(r) => ({ 'data-testid': 'statistic-row', 'data-label': r.label })}
        columns={[
          { title: t(`statistic.by.${by}`), dataIndex: 'label' },
          { title: t('statistic.planned'), dataIndex: 'planned' },
          { title: t('state.1'), dataIndex: 'normal' },
          { title: t('state.2'), dataIndex: 'abnormal' },
          { title: t('state.0'), dataIndex: 'waiting' },
          ...REASONS.map((why) => ({ title: t(`reason.${why}`), key: why, render: (_: unknown, r: StatRow) => r.reasons[why] })),
          { title: t('statistic.rate'), key: 'rate', render: (_: unknown, r: StatRow) => rate(r) },
        ]}
        summary={() =>
          rows.length > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('statistic.total')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1}>{total.planned}</Table.Summary.Cell>
              <Table.Summary.Cell index={2}>{total.normal}</Table.Summary.Cell>
              <Table.Summary.Cell index={3}>{total.abnormal}</Table.Summary.Cell>
              <Table.Summary.Cell index={4}>{total.waiting}</Table.Summary.Cell>
              {REASONS.map((why, i) => (
                <Table.Summary.Cell key={why} index={5 + i}>
                  {total.reasons[why]}
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={8}>{rate(total)}</Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
        style={{ marginTop: 12 }}
      />
    </ReportShell>
  );
}
