// /call-duration-data (+ child): talk time per terminal, group and day over a range (POST
// findCallDurationPost), counting only terminals with voice permission (spec §6); charts and the .xlsx export.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Select, Table, Tag, Typography } from 'antd';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { filterChoice, useGroupChoices } from '../../../shared/directory/choices';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { Chart } from '../../../shared/charts/Chart';
import { MONTH_DAYS } from '../../../shared/time/range';
import { clock } from '../../../shared/time/zone';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { dayBars, rangeDays, rankBars } from '../../../shared/report/charts';
import { activityApi, activityKeys, minutes, type GroupTalk, type TerminalTalk } from '../api';
import { QueryTable } from '../../../shared/table/QueryTable';

const KINDS = ['groupMs', 'singleMs', 'otherMs'] as const;
const KIND_COLOR = ['#1677ff', '#52c41a', '#faad14'];

export default function CallDurationPage() {
  const { t } = useTranslation('activityreport');
  const groupChoices = useGroupChoices();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [gids, setGids] = useState<string[]>([]);
  const search = useReportSearch({ msIds: [] as string[], gids: [] as string[] }, { maxDays: MONTH_DAYS });
  const { query } = search;
  const q = useQuery({ queryKey: activityKeys.duration(query), queryFn: () => activityApi.callDuration(query) });
  const rep = q.data;
  const terminals = useMemo(() => rep?.terminals ?? [], [rep]);
  const groups = useMemo(() => rep?.groups ?? [], [rep]);
  const days = useMemo(() => {
    const by = new Map((rep?.days ?? []).map((d) => [d.day, d]));
    return rangeDays(query).map((day) => ({ day, talkMs: by.get(day)?.talkMs ?? 0, bursts: by.get(day)?.bursts ?? 0 }));
  }, [rep, query]);
  // Options made once per answer: a new option redraws its chart.
  const charts = useMemo(() => {
    const top = terminals.slice(0, 15);
    return [
      { testId: 'chart-day', title: t('talk.perDay'), xl: 12, option: dayBars(days.map((d) => d.day), [{ name: t('col.talkTime'), color: '#722ed1', data: days.map((d) => minutes(d.talkMs)) }], t('unit.minutes')) },
      {
        testId: 'chart-terminal',
        title: t('talk.perTerminal'),
        xl: 12,
        option: rankBars(top.map((x) => `${x.msName} (${x.msId})`), KINDS.map((k, i) => ({ name: t(`col.${k}`), color: KIND_COLOR[i], stack: 'talk', data: top.map((x) => minutes(x[k])) })), t('unit.minutes')),
      },
    ];
  }, [days, terminals, t]);
  const groupOption = useMemo(() => {
    const top = groups.slice(0, 12);
    return rankBars(top.map((g) => g.gName || g.gid), [{ name: t('col.talkTime'), color: '#13a8a8', data: top.map((g) => minutes(g.talkMs)) }], t('unit.minutes'), 120);
  }, [groups, t]);

  const doExport = () =>
    writeStampedXlsx(t('export.talkFile'), [
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

  return (
    <ReportShell
      ns="activityreport"
      title={t('talk.title')}
      testId="call-duration-page"
      data={{ 'data-rows': terminals.length, 'data-talk-ms': rep?.talkMs ?? 0, 'data-loading': q.isFetching ? '1' : '0' }}
      search={search}
      error={q.error}
      filters={
        <>
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 220 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="terminal-select" />
          <Select mode="multiple" allowClear maxTagCount="responsive" style={{ minWidth: 200 }} value={gids} onChange={setGids} options={groupChoices} filterOption={filterChoice} placeholder={t('filter.groups')} data-testid="group-select" />
        </>
      }
      onSearch={() => search.apply({ msIds, gids })}
      onExport={doExport}
      exportDisabled={!terminals.length}
      note={<Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>{t('talk.note')}</Typography.Paragraph>}
      stats={[
        { key: 'talk', title: t('col.talkTime'), value: clock(rep?.talkMs ?? 0) },
        { key: 'bursts', title: t('col.bursts'), value: rep?.bursts ?? 0 },
        { key: 'terminals', title: t('talk.terminals'), value: terminals.length },
      ]}
      charts={charts}
    >
      <Row gutter={16}>
        <Col xs={24} xl={14}>
          <QueryTable<TerminalTalk>
            query={q}
            rowKey="msId"
            rows={terminals}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            row={(r) => ({ 'data-testid': 'talk-row', 'data-ms-id': r.msId, 'data-talk-ms': r.talkMs })}
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
    </ReportShell>
  );
}
