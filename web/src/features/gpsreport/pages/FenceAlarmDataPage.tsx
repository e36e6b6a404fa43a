// /fence-alarm-data: fence alarm counts per terminal or per fence, and the alarm records, for a time range
// (docs/geo.md findFenceAlarmCountPost and /ds/fence/fa), exportable.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Radio, Table, Tag } from 'antd';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { geoApi, type FenceAlarm } from '../../../shared/geo/api';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { MONTH_DAYS } from '../../../shared/time/range';
import { formatZoned } from '../../../shared/time/zone';
import { fetchAllPages } from '../../../shared/report/fetchAll';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';
import { reportApi, reportKeys, type AlarmCountRow } from '../api';
import { writeXlsx } from '../../../shared/utils/xlsx';

type GroupBy = 'terminal' | 'fence';

export default function FenceAlarmDataPage() {
  const { t } = useTranslation('gpsreport');
  const { message } = App.useApp();
  useLiveDirectory();
  const dateTime = useDateTimeFormat();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [groupBy, setGroupBy] = useState<GroupBy>('terminal');
  const search = useReportSearch({ msIds: [] as string[], groupBy: 'terminal' as GroupBy }, { maxDays: MONTH_DAYS });
  const { query, page } = search;
  const counts = useQuery({
    queryKey: reportKeys.fenceAlarms(query),
    queryFn: () => reportApi.fenceAlarmCount({ msIds: query.msIds.length ? query.msIds : undefined, sTime: query.sTime, eTime: query.eTime, groupBy: query.groupBy === 'fence' ? 'fence' : undefined }),
    enabled: search.searched,
  });
  const alarms = (pageNo: number, pageSize: number) => geoApi.alarms({ msIds: query.msIds.join(',') || undefined, sTime: query.sTime, eTime: query.eTime, pageNo, pageSize });
  const records = useQuery({
    queryKey: reportKeys.fenceAlarmRecords(query, page),
    queryFn: () => alarms(page.pageNo, page.pageSize),
    enabled: search.searched,
  });
  const byFence = query.groupBy === 'fence';
  const exportAll = async () => {
    const { list: all } = await fetchAllPages(alarms);
    await writeXlsx(`fence-alarms-${formatZoned(query.sTime, 'YYYYMMDD')}`, [
      {
        name: t('fence.counts'),
        columns: [
          { header: byFence ? t('fence.fence') : t('col.terminal'), key: 'who', width: 24 },
          { header: t('fence.count'), key: 'count' },
          { header: t('fence.leave'), key: 'leave' },
          { header: t('fence.enter'), key: 'enter' },
          { header: t('fence.closed'), key: 'closed' },
        ],
        rows: (counts.data?.list ?? []).map((r) => ({ ...r, who: byFence ? r.fenceName : `${r.msName ?? ''} (${r.msId})` })),
      },
      {
        name: t('fence.records'),
        columns: [
          { header: t('col.time'), key: 'time', width: 20 },
          { header: t('col.terminal'), key: 'ms', width: 22 },
          { header: t('fence.fence'), key: 'fenceName', width: 20 },
          { header: t('fence.type'), key: 'type' },
          { header: t('col.lat'), key: 'lat' },
          { header: t('col.lng'), key: 'lng' },
          { header: t('fence.status'), key: 'status' },
          { header: t('fence.responder'), key: 'responder' },
          { header: t('fence.responseTime'), key: 'responseTime', width: 20 },
          { header: t('fence.closer'), key: 'closer' },
          { header: t('fence.closeTime'), key: 'closeTime', width: 20 },
        ],
        rows: all.map((a) => ({
          ...a,
          time: formatZoned(a.time, dateTime),
          ms: `${a.msName} (${a.msId})`,
          type: t(`fence.types.${a.type}`),
          status: t(`fence.statuses.${a.status}`),
          responseTime: a.responseTime ? formatZoned(a.responseTime, dateTime) : '',
          closeTime: a.closeTime ? formatZoned(a.closeTime, dateTime) : '',
        })),
      },
    ]);
    message.success(t('exported', { count: all.length }));
  };
  return (
    <ReportShell
      ns="gpsreport"
      rangeNs="gpsreport"
      title={t('fence.title')}
      testId="fence-alarm-data-page"
      search={search}
      error={counts.error}
      filters={
        <>
          <TerminalPicker multiple value={msIds} onChange={setMsIds} placeholder={t('allTerminals')} style={{ width: 300 }} />
          <Radio.Group optionType="button" value={groupBy} onChange={(e) => setGroupBy(e.target.value)} options={[{ value: 'terminal', label: t('fence.byTerminal') }, { value: 'fence', label: t('fence.byFence') }]} />
        </>
      }
      onSearch={() => search.apply({ msIds, groupBy })}
      onExport={exportAll}
      exportDisabled={!counts.data}
      testIds={{ search: 'fa-search', export: 'fa-export' }}
    >
      <Table<AlarmCountRow>
        size="small"
        rowKey={(r) => r.fenceid ?? r.msId ?? ''}
        loading={counts.isFetching}
        dataSource={counts.data?.list ?? []}
        pagination={false}
        data-testid="fa-counts"
        columns={[
          { key: 'who', title: byFence ? t('fence.fence') : t('col.terminal'), render: (_, r) => (byFence ? r.fenceName : `${r.msName ?? ''} (${r.msId})`) },
          { key: 'count', title: t('fence.count'), dataIndex: 'count', width: 100 },
          { key: 'leave', title: t('fence.leave'), dataIndex: 'leave', width: 100 },
          { key: 'enter', title: t('fence.enter'), dataIndex: 'enter', width: 100 },
          { key: 'closed', title: t('fence.closed'), dataIndex: 'closed', width: 100 },
        ]}
      />
      <Card size="small" title={t('fence.records')} style={{ marginTop: 16 }}>
        <Table<FenceAlarm>
          size="small"
          rowKey="id"
          loading={records.isFetching}
          dataSource={records.data?.list ?? []}
          pagination={search.pagination(records.data?.total ?? 0)}
          columns={[
            { key: 'time', title: t('col.time'), render: (_, a) => formatZoned(a.time, dateTime), width: 170 },
            { key: 'ms', title: t('col.terminal'), render: (_, a) => `${a.msName} (${a.msId})` },
            { key: 'fence', title: t('fence.fence'), dataIndex: 'fenceName' },
            { key: 'type', title: t('fence.type'), render: (_, a) => <Tag color={a.type === 'leave' ? 'orange' : 'red'}>{t(`fence.types.${a.type}`)}</Tag>, width: 90 },
            { key: 'pos', title: t('col.position'), render: (_, a) => `${a.lat.toFixed(5)}, ${a.lng.toFixed(5)}`, width: 170 },
            { key: 'status', title: t('fence.status'), render: (_, a) => t(`fence.statuses.${a.status}`), width: 100 },
            { key: 'resp', title: t('fence.responder'), render: (_, a) => (a.responseTime ? `${a.responder} · ${formatZoned(a.responseTime, dateTime)}` : '—') },
            { key: 'close', title: t('fence.closer'), render: (_, a) => (a.closeTime ? `${a.closer} · ${formatZoned(a.closeTime, dateTime)}` : '—') },
          ]}
        />
      </Card>
    </ReportShell>
  );
}
