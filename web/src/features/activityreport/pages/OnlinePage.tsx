// /online (+ child): online time per terminal over a range (POST findOnlineDurationPost), a terminal's
// online/offline intervals (GET findOnlineDetailData), charts and the .xlsx export.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Col, Drawer, Row, Space, Statistic, Table, Tag } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { RangeField } from '../../../shared/time/RangePicker';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { errorCode } from '../../../shared/errors';
import { writeXlsx } from '../../../shared/utils/xlsx';
import { Chart } from '../../../shared/charts/Chart';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeProblemOf, rangeToMs, type RangeProblem } from '../../../shared/time/range';
import { clock, formatZoned, msToWall, wallNow } from '../../../shared/time/zone';
import { activityApi, activityKeys, daysBetween, hours, onlinePerDay, onlineShare, type OnlineInterval, type OnlineRow } from '../api';

export default function OnlinePage() {
  const { t } = useTranslation('activityreport');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => defaultWallRange());
  const [msIds, setMsIds] = useState<string[]>([]);
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState(() => ({ ...rangeToMs(defaultWallRange()), msIds: [] as string[] }));
  const [detailOf, setDetailOf] = useState<OnlineRow | null>(null);
  const q = useQuery({ queryKey: activityKeys.online(query), queryFn: () => activityApi.online(query) });
  const detail = useQuery({
    queryKey: activityKeys.detail(detailOf?.msId ?? '', query.sTime, query.eTime),
    queryFn: () => activityApi.onlineDetail(detailOf!.msId, query.sTime, query.eTime),
    enabled: !!detailOf,
  });
  const rows = useMemo(() => q.data?.list ?? [], [q.data]);
  const days = useMemo(
    () => onlinePerDay(rows, daysBetween(msToWall(query.sTime).format('YYYY-MM-DD'), msToWall(query.eTime).format('YYYY-MM-DD'))),
    [rows, query],
  );
  const totalMs = rows.reduce((a, r) => a + r.onlineMs, 0);
  const everOnline = rows.filter((r) => r.onlineMs > 0).length;

  const search = () => {
    const err = checkWallRange(range, MONTH_DAYS) ?? null;
    setRangeError(err);
    if (err || !range) return;
    setQuery({ ...rangeToMs(range), msIds });
  };

  const dayOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', name: t('unit.hours') },
      series: [{ name: t('col.onlineTime'), type: 'bar', itemStyle: { color: '#13a8a8' }, data: days.map((d) => hours(d.onlineMs)) }],
    }),
    [days, t],
  );
  const top = rows.slice(0, 15);
  const terminalOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 140, right: 16, top: 16, bottom: 24 },
      xAxis: { type: 'value', name: t('unit.hours') },
      yAxis: { type: 'category', inverse: true, data: top.map((x) => `${x.msName} (${x.msId})`) },
      series: [{ name: t('col.onlineTime'), type: 'bar', itemStyle: { color: '#1677ff' }, data: top.map((x) => hours(x.onlineMs)) }],
    }),
    [top, t],
  );

  const doExport = async () => {
    try {
      const stamp = wallNow().format('YYYYMMDD-HHmm');
      await writeXlsx(`${t('export.onlineFile')}-${stamp}`, [
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
    } catch (e) {
      message.error(t('error', { code: errorCode(e) }));
    }
  };

  const serverRange = q.error ? rangeProblemOf(errorCode(q.error)) : undefined;
  return (
    <div className="page-pad" data-testid="online-page" data-rows={rows.length} data-total-ms={totalMs} data-loading={q.isFetching ? '1' : '0'}>
      <Card size="small" title={t('online.title')}>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <RangeField value={range} onChange={setRange} error={rangeError ?? serverRange ?? null} ns="activityreport" />
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="terminal-select" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="report-search">
            {t('filter.search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={doExport} disabled={!rows.length} data-testid="report-export">
            {t('export.button')}
          </Button>
        </Space>
        {q.error && !serverRange ? <Tag color="red">{t('error', { code: errorCode(q.error) })}</Tag> : null}
        <Row gutter={16} style={{ marginBottom: 12 }}>
          <Col span={8}><Statistic title={t('online.terminals')} value={rows.length} /></Col>
          <Col span={8}><Statistic title={t('online.everOnline')} value={everOnline} /></Col>
          <Col span={8}><Statistic title={t('online.totalTime')} value={hours(totalMs)} suffix={t('unit.h')} /></Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} xl={14}>
            <Card size="small" type="inner" title={t('online.perDay')}>
              <Chart option={dayOption} testId="chart-day" />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" type="inner" title={t('online.perTerminal')}>
              <Chart option={terminalOption} testId="chart-terminal" />
            </Card>
          </Col>
        </Row>
        <Table<OnlineRow>
          style={{ marginTop: 12 }}
          size="small"
          rowKey="msId"
          loading={q.isLoading}
          dataSource={rows}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          onRow={(r) => ({ 'data-testid': 'online-row', 'data-ms-id': r.msId, 'data-online-ms': r.onlineMs }) as React.HTMLAttributes<HTMLElement>}
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
      </Card>
      <Drawer open={!!detailOf} onClose={() => setDetailOf(null)} width={560} title={detailOf ? t('online.detailTitle', { name: `${detailOf.msName} (${detailOf.msId})` }) : ''}>
        <div data-testid="online-intervals" data-count={detail.data?.list.length ?? 0}>
          <Statistic title={t('col.onlineTime')} value={clock(detail.data?.onlineMs ?? 0)} style={{ marginBottom: 12 }} />
          <Table<OnlineInterval>
            size="small"
            rowKey={(r) => String(r.online)}
            loading={detail.isLoading}
            dataSource={detail.data?.list ?? []}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { key: 'on', title: t('col.online'), render: (_, r) => formatZoned(r.online, dateTime) },
              { key: 'off', title: t('col.offline'), render: (_, r) => (r.offline ? formatZoned(r.offline, dateTime) : <Tag color="green">{t('online.stillOnline')}</Tag>) },
              { key: 'dur', title: t('col.duration'), render: (_, r) => clock(r.durationMs), width: 110 },
            ]}
          />
        </div>
      </Drawer>
    </div>
  );
}
