// /call-duration-data (+ child): talk time per terminal, group and day over a range (POST
// findCallDurationPost), counting only terminals with voice permission (spec §6); charts and the .xlsx export.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Col, Row, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { RangeField } from '../../../shared/time/RangePicker';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { filterChoice, useGroupChoices } from '../../../shared/directory/choices';
import { errorCode } from '../../../shared/errors';
import { writeXlsx } from '../../../shared/utils/xlsx';
import { Chart } from '../../../shared/charts/Chart';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeProblemOf, rangeToMs, type RangeProblem } from '../../../shared/time/range';
import { clock, msToWall, wallNow } from '../../../shared/time/zone';
import { activityApi, activityKeys, daysBetween, minutes, type GroupTalk, type TerminalTalk } from '../api';

export default function CallDurationPage() {
  const { t } = useTranslation('activityreport');
  const { message } = App.useApp();
  const groupChoices = useGroupChoices();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => defaultWallRange());
  const [msIds, setMsIds] = useState<string[]>([]);
  const [gids, setGids] = useState<string[]>([]);
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState(() => ({ ...rangeToMs(defaultWallRange()), msIds: [] as string[], gids: [] as string[] }));
  const q = useQuery({ queryKey: activityKeys.duration(query), queryFn: () => activityApi.callDuration(query) });
  const rep = q.data;
  const terminals = useMemo(() => rep?.terminals ?? [], [rep]);
  const groups = useMemo(() => rep?.groups ?? [], [rep]);
  const days = useMemo(() => {
    const by = new Map((rep?.days ?? []).map((d) => [d.day, d]));
    return daysBetween(msToWall(query.sTime).format('YYYY-MM-DD'), msToWall(query.eTime).format('YYYY-MM-DD')).map((day) => ({ day, talkMs: by.get(day)?.talkMs ?? 0, bursts: by.get(day)?.bursts ?? 0 }));
  }, [rep, query]);

  const search = () => {
    const err = checkWallRange(range, MONTH_DAYS) ?? null;
    setRangeError(err);
    if (err || !range) return;
    setQuery({ ...rangeToMs(range), msIds, gids });
  };

  const dayOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', name: t('unit.minutes') },
      series: [{ name: t('col.talkTime'), type: 'bar', itemStyle: { color: '#722ed1' }, data: days.map((d) => minutes(d.talkMs)) }],
    }),
    [days, t],
  );
  const top = terminals.slice(0, 15);
  const terminalOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 140, right: 16, top: 32, bottom: 24 },
      xAxis: { type: 'value', name: t('unit.minutes') },
      yAxis: { type: 'category', inverse: true, data: top.map((x) => `${x.msName} (${x.msId})`) },
      series: (['groupMs', 'singleMs', 'otherMs'] as const).map((k, i) => ({
        name: t(`col.${k}`),
        type: 'bar',
        stack: 'talk',
        itemStyle: { color: ['#1677ff', '#52c41a', '#faad14'][i] },
        data: top.map((x) => minutes(x[k])),
      })),
    }),
    [top, t],
  );
  const groupOption = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 120, right: 16, top: 16, bottom: 24 },
      xAxis: { type: 'value', name: t('unit.minutes') },
      yAxis: { type: 'category', inverse: true, data: groups.slice(0, 12).map((g) => g.gName || g.gid) },
      series: [{ name: t('col.talkTime'), type: 'bar', itemStyle: { color: '#13a8a8' }, data: groups.slice(0, 12).map((g) => minutes(g.talkMs)) }],
    }),
    [groups, t],
  );

  const doExport = async () => {
    if (!rep) return;
    try {
      await writeXlsx(`${t('export.talkFile')}-${wallNow().format('YYYYMMDD-HHmm')}`, [
        {
          name: t('export.terminalSheet'),
          columns: [
            { header: t('col.terminalId'), key: 'msId', width: 12 },
            { header: t('col.terminal'), key: 'msName', width: 22 },
            { header: t('col.talkTime'), key: 'talk', width: 12 },
            { header: t('col.talkSeconds'), key: 'seconds', width: 12 },
            { header: t('col.bursts'), key: 'bursts', width: 10 },
            { header: t('col.groupMs'), key: 'group', width: 14 },
            { header: t('col.singleMs'), key: 'single', width: 14 },
            { header: t('col.otherMs'), key: 'other', width: 14 },
          ],
          rows: terminals.map((x) => ({ msId: x.msId, msName: x.msName, talk: clock(x.talkMs), seconds: Math.round(x.talkMs / 1000), bursts: x.bursts, group: clock(x.groupMs), single: clock(x.singleMs), other: clock(x.otherMs) })),
        },
        {
          name: t('export.groupSheet'),
          columns: [
            { header: t('col.groupId'), key: 'gid', width: 10 },
            { header: t('col.group'), key: 'gName', width: 22 },
            { header: t('col.talkTime'), key: 'talk', width: 12 },
            { header: t('col.talkSeconds'), key: 'seconds', width: 12 },
            { header: t('col.bursts'), key: 'bursts', width: 10 },
          ],
          rows: groups.map((g) => ({ gid: g.gid, gName: g.gName, talk: clock(g.talkMs), seconds: Math.round(g.talkMs / 1000), bursts: g.bursts })),
        },
        {
          name: t('export.daySheet'),
          columns: [
            { header: t('col.day'), key: 'day', width: 12 },
            { header: t('col.talkTime'), key: 'talk', width: 12 },
            { header: t('col.talkSeconds'), key: 'seconds', width: 12 },
            { header: t('col.bursts'), key: 'bursts', width: 10 },
          ],
          rows: days.map((d) => ({ day: d.day, talk: clock(d.talkMs), seconds: Math.round(d.talkMs / 1000), bursts: d.bursts })),
        },
      ]);
    } catch (e) {
      message.error(t('error', { code: errorCode(e) }));
    }
  };

  const serverRange = q.error ? rangeProblemOf(errorCode(q.error)) : undefined;
  return (
    <div className="page-pad" data-testid="call-duration-page" data-rows={terminals.length} data-talk-ms={rep?.talkMs ?? 0} data-loading={q.isFetching ? '1' : '0'}>
      <Card size="small" title={t('talk.title')}>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <RangeField value={range} onChange={setRange} error={rangeError ?? serverRange ?? null} ns="activityreport" />
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 220 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="terminal-select" />
          <Select mode="multiple" allowClear maxTagCount="responsive" style={{ minWidth: 200 }} value={gids} onChange={setGids} options={groupChoices} filterOption={filterChoice} placeholder={t('filter.groups')} data-testid="group-select" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="report-search">
            {t('filter.search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={doExport} disabled={!terminals.length} data-testid="report-export">
            {t('export.button')}
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>{t('talk.note')}</Typography.Paragraph>
        {q.error && !serverRange ? <Tag color="red">{t('error', { code: errorCode(q.error) })}</Tag> : null}
        <Row gutter={16} style={{ marginBottom: 12 }}>
          <Col span={8}><Statistic title={t('col.talkTime')} value={clock(rep?.talkMs ?? 0)} /></Col>
          <Col span={8}><Statistic title={t('col.bursts')} value={rep?.bursts ?? 0} /></Col>
          <Col span={8}><Statistic title={t('talk.terminals')} value={terminals.length} /></Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} xl={12}>
            <Card size="small" type="inner" title={t('talk.perDay')}>
              <Chart option={dayOption} testId="chart-day" />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card size="small" type="inner" title={t('talk.perTerminal')}>
              <Chart option={terminalOption} testId="chart-terminal" />
            </Card>
          </Col>
        </Row>
        <Row gutter={16} style={{ marginTop: 12 }}>
          <Col xs={24} xl={14}>
            <Table<TerminalTalk>
              size="small"
              rowKey="msId"
              loading={q.isLoading}
              dataSource={terminals}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              onRow={(r) => ({ 'data-testid': 'talk-row', 'data-ms-id': r.msId, 'data-talk-ms': r.talkMs }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                { key: 'ms', title: t('col.terminal'), render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
                { key: 'talk', title: t('col.talkTime'), render: (_, r) => clock(r.talkMs), width: 110, sorter: (a, b) => a.talkMs - b.talkMs },
                { key: 'bursts', title: t('col.bursts'), dataIndex: 'bursts', width: 90 },
                { key: 'group', title: t('col.groupMs'), render: (_, r) => clock(r.groupMs), width: 110 },
                { key: 'single', title: t('col.singleMs'), render: (_, r) => clock(r.singleMs), width: 110 },
              ]}
            />
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" type="inner" title={t('talk.perGroup')}>
              <Chart option={groupOption} height={220} testId="chart-group" />
              <Table<GroupTalk>
                size="small"
                rowKey="gid"
                dataSource={groups}
                pagination={{ pageSize: 10, hideOnSinglePage: true }}
                onRow={(g) => ({ 'data-testid': 'talk-group-row', 'data-gid': g.gid }) as React.HTMLAttributes<HTMLElement>}
                columns={[
                  { key: 'g', title: t('col.group'), render: (_, g) => (g.kind === 'temp' ? <>{g.gName} <Tag>{t('talk.temp')}</Tag></> : g.gName || g.gid) },
                  { key: 'talk', title: t('col.talkTime'), render: (_, g) => clock(g.talkMs), width: 110 },
                  { key: 'bursts', title: t('col.bursts'), dataIndex: 'bursts', width: 80 },
                ]}
              />
            </Card>
          </Col>
        </Row>
      </Card>
    </div>
  );
}
