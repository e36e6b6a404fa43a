// /fence-alarm-data: fence alarm counts per terminal or per fence, and the alarm records, for a time range
// (docs/geo.md findFenceAlarmCountPost and /ds/fence/fa), exportable.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Radio, Space, Table, Tag } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { codeText } from '../codes';
import { useSession } from '../../../shared/session';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { geoApi, type FenceAlarm } from '../../../shared/geo/api';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { checkRange, MONTH_DAYS, RANGE_CODES } from '../../../shared/time/range';
import { reportApi, reportKeys, type AlarmCountRow } from '../api';
import { writeXlsx } from '../../../shared/utils/xlsx';

export default function FenceAlarmDataPage() {
  const { t } = useTranslation('gpsreport');
  const { message } = App.useApp();
  useLiveDirectory();
  const tz = useSession((s) => s.session?.timeZoneMs ?? 0);
  const dateTime = useDateTimeFormat();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [groupBy, setGroupBy] = useState<'terminal' | 'fence'>('terminal');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => [dayjs().startOf('month'), dayjs()]);
  const [query, setQuery] = useState<{ msIds: string[]; sTime: number; eTime: number; groupBy: 'terminal' | 'fence' }>();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [error, setError] = useState<string>();
  const counts = useQuery({
    queryKey: reportKeys.fenceAlarms(query ?? {}),
    queryFn: () => reportApi.fenceAlarmCount({ msIds: query!.msIds.length ? query!.msIds : undefined, sTime: query!.sTime, eTime: query!.eTime, groupBy: query!.groupBy === 'fence' ? 'fence' : undefined }),
    enabled: !!query,
  });
  const records = useQuery({
    queryKey: ['report', 'fenceAlarmRecords', query, page],
    queryFn: () => geoApi.alarms({ msIds: query!.msIds.join(',') || undefined, sTime: query!.sTime, eTime: query!.eTime, ...page }),
    enabled: !!query,
  });
  const search = () => {
    setError(undefined);
    const problem = checkRange(range?.[0].valueOf(), range?.[1].valueOf(), MONTH_DAYS, tz);
    if (problem) return setError(t(`range.${problem}`, { days: MONTH_DAYS, code: RANGE_CODES[problem] }));
    setPage((p) => ({ ...p, pageNo: 1 }));
    setQuery({ msIds, sTime: range![0].valueOf(), eTime: range![1].valueOf(), groupBy });
  };
  const byFence = query?.groupBy === 'fence';
  const exportAll = async () => {
    if (!query || !counts.data) return;
    try {
      const all: FenceAlarm[] = [];
      for (let pageNo = 1; ; pageNo++) {
        const r = await geoApi.alarms({ msIds: query.msIds.join(',') || undefined, sTime: query.sTime, eTime: query.eTime, pageNo, pageSize: 1000 });
        all.push(...r.list);
        if (r.list.length < 1000 || all.length >= r.total) break;
      }
      await writeXlsx(`fence-alarms-${dayjs(query.sTime).format('YYYYMMDD')}`, [
        {
          name: t('fence.counts'),
          columns: [
            { header: byFence ? t('fence.fence') : t('col.terminal'), key: 'who', width: 24 },
            { header: t('fence.count'), key: 'count' },
            { header: t('fence.leave'), key: 'leave' },
            { header: t('fence.enter'), key: 'enter' },
            { header: t('fence.closed'), key: 'closed' },
          ],
          rows: counts.data.list.map((r) => ({ ...r, who: byFence ? r.fenceName : `${r.msName ?? ''} (${r.msId})` })),
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
            time: dayjs(a.time).format(dateTime),
            ms: `${a.msName} (${a.msId})`,
            type: t(`fence.types.${a.type}`),
            status: t(`fence.statuses.${a.status}`),
            responseTime: a.responseTime ? dayjs(a.responseTime).format(dateTime) : '',
            closeTime: a.closeTime ? dayjs(a.closeTime).format(dateTime) : '',
          })),
        },
      ]);
      message.success(t('exported', { count: all.length }));
    } catch (e) {
      message.error(codeText(t, e));
    }
  };
  return (
    <div className="page-pad report-page" data-testid="fence-alarm-data-page">
      <Card size="small" title={t('fence.title')}>
        <Space wrap style={{ marginBottom: 12 }}>
          <TerminalPicker multiple value={msIds} onChange={setMsIds} placeholder={t('allTerminals')} style={{ width: 300 }} />
          <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)} />
          <Radio.Group optionType="button" value={groupBy} onChange={(e) => setGroupBy(e.target.value)} options={[{ value: 'terminal', label: t('fence.byTerminal') }, { value: 'fence', label: t('fence.byFence') }]} />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="fa-search">
            {t('search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={exportAll} disabled={!counts.data} data-testid="fa-export">
            {t('export')}
          </Button>
        </Space>
        {(error || counts.error) && <Alert type="error" showIcon title={error ?? codeText(t, counts.error)} style={{ marginBottom: 12 }} />}
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
      </Card>
      <Card size="small" title={t('fence.records')} style={{ marginTop: 16 }}>
        <Table<FenceAlarm>
          size="small"
          rowKey="id"
          loading={records.isFetching}
          dataSource={records.data?.list ?? []}
          pagination={{ current: page.pageNo, pageSize: page.pageSize, total: records.data?.total ?? 0, onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
          columns={[
            { key: 'time', title: t('col.time'), render: (_, a) => dayjs(a.time).format(dateTime), width: 170 },
            { key: 'ms', title: t('col.terminal'), render: (_, a) => `${a.msName} (${a.msId})` },
            { key: 'fence', title: t('fence.fence'), dataIndex: 'fenceName' },
            { key: 'type', title: t('fence.type'), render: (_, a) => <Tag color={a.type === 'leave' ? 'orange' : 'red'}>{t(`fence.types.${a.type}`)}</Tag>, width: 90 },
            { key: 'pos', title: t('col.position'), render: (_, a) => `${a.lat.toFixed(5)}, ${a.lng.toFixed(5)}`, width: 170 },
            { key: 'status', title: t('fence.status'), render: (_, a) => t(`fence.statuses.${a.status}`), width: 100 },
            { key: 'resp', title: t('fence.responder'), render: (_, a) => (a.responseTime ? `${a.responder} · ${dayjs(a.responseTime).format(dateTime)}` : '—') },
            { key: 'close', title: t('fence.closer'), render: (_, a) => (a.closeTime ? `${a.closer} · ${dayjs(a.closeTime).format(dateTime)}` : '—') },
          ]}
        />
      </Card>
    </div>
  );
}
