// /emergcy-alarm-report (+ child): SOS alarm statistics per day and per terminal (POST findSosReport), charts,
// the table and .xlsx export.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { i18next } from '../../../i18n';
import { App, Button, Card, Col, Row, Space, Statistic, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { sosApi, sosKeys, type SosReportRow } from '../../../shared/alarms/sos';
import { RangeField } from '../../../shared/time/RangePicker';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { errorKey, errorText } from '../../../shared/alarms/errors';
import { writeXlsx } from '../../../shared/utils/xlsx';
import { checkWallRange, defaultWallRange, rangeProblemOf, rangeToMs, type RangeProblem } from '../../../shared/time/range';
import { clock, msToWall, wallNow } from '../../../shared/time/zone';
import { byDay, byTerminal, daysBetween } from '../aggregate';
import { Chart } from '../../../shared/charts/Chart';

const ms = (v: number) => (v ? clock(v) : '—');
const SERIES_COLOR = { sending: '#ff4d4f', acknowledged: '#faad14', closed: '#52c41a', canceled: '#8c8c8c' } as const;

export default function EmergencyReportPage() {
  const { t } = useTranslation('safetyreport');
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => defaultWallRange());
  const [msIds, setMsIds] = useState<string[]>([]);
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState(() => ({ ...rangeToMs(defaultWallRange()), msIds: undefined as string | undefined }));
  const q = useQuery({ queryKey: sosKeys.report(query), queryFn: () => sosApi.report(query) });
  const rows = useMemo(() => q.data?.list ?? [], [q.data]);
  const days = useMemo(() => {
    const totals = new Map(byDay(rows).map((d) => [d.day, d.totals]));
    const all = daysBetween(msToWall(query.sTime).format('YYYY-MM-DD'), msToWall(query.eTime).format('YYYY-MM-DD'));
    return all.map((day) => ({ day, totals: totals.get(day) }));
  }, [rows, query]);
  const terminals = useMemo(() => byTerminal(rows), [rows]);
  const sum = useMemo(() => rows.reduce((a, r) => ({ total: a.total + r.total, sending: a.sending + r.sending, canceled: a.canceled + r.canceled, max: Math.max(a.max, r.maxResponse) }), { total: 0, sending: 0, canceled: 0, max: 0 }), [rows]);

  const search = () => {
    const err = checkWallRange(range) ?? null;
    setRangeError(err);
    if (err || !range) return;
    setQuery({ ...rangeToMs(range), msIds: msIds.length ? msIds.join(',') : undefined });
  };

  const series = (key: 'sending' | 'acknowledged' | 'closed' | 'canceled') => ({
    name: t(`series.${key}`),
    type: 'bar',
    itemStyle: { color: SERIES_COLOR[key] },
    stack: key === 'canceled' ? undefined : 'state',
    data: days.map((d) => d.totals?.[key] ?? 0),
  });
  const dayOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [series('sending'), series('acknowledged'), series('closed'), series('canceled')],
    }),
    [days, t], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const terminalOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 130, right: 16, top: 16, bottom: 24 },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: terminals.slice(0, 15).map((x) => `${x.msName} (${x.msId})`) },
      series: [{ name: t('series.total'), type: 'bar', data: terminals.slice(0, 15).map((x) => x.totals.total), itemStyle: { color: '#ff4d4f' } }],
    }),
    [terminals, t],
  );

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

  const doExport = async () => {
    try {
      await writeXlsx(`${t('export.reportFile')}-${wallNow().format('YYYYMMDD-HHmm')}`, [{
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
    } catch (e) {
      message.error(errorText(i18next.getFixedT(null, 'alarm'), e));
    }
  };

  const serverRange = q.error ? rangeProblemOf(errorKey(q.error).code) : undefined;
  return (
    <div className="page-pad" data-testid="emergency-report-page" data-rows={rows.length} data-loading={q.isFetching ? '1' : '0'}>
      <Card size="small" title={t('report.title')}>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <RangeField value={range} onChange={setRange} error={rangeError ?? serverRange ?? null} ns="safetyreport" />
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="terminal-select" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="report-search">
            {t('filter.search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={doExport} disabled={!rows.length} data-testid="report-export">
            {t('export.button')}
          </Button>
        </Space>
        <Row gutter={16} style={{ marginBottom: 12 }}>
          <Col span={6}><Statistic title={t('series.total')} value={sum.total} /></Col>
          <Col span={6}><Statistic title={t('series.sending')} value={sum.sending} styles={sum.sending ? { content: { color: '#ff4d4f' } } : undefined} /></Col>
          <Col span={6}><Statistic title={t('series.canceled')} value={sum.canceled} /></Col>
          <Col span={6}><Statistic title={t('col.maxResponse')} value={ms(sum.max)} /></Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} xl={14}>
            <Card size="small" type="inner" title={t('report.perDay')}>
              <Chart option={dayOption} testId="chart-day" />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" type="inner" title={t('report.perTerminal')}>
              <Chart option={terminalOption} testId="chart-terminal" />
            </Card>
          </Col>
        </Row>
        <Table<SosReportRow> style={{ marginTop: 12 }} size="small" rowKey={(r) => `${r.msId}-${r.day}`} loading={q.isLoading} dataSource={rows} columns={columns} pagination={{ pageSize: 20, hideOnSinglePage: true }} />
      </Card>
    </div>
  );
}
