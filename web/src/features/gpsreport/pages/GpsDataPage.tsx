// /gps-data: positions per terminal and time range (spec §2 reports; docs/geo.md "GPS report"), exportable.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Space, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { codeText } from '../codes';
import { useSession } from '../../../shared/session';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { checkRange, RANGE_CODES, TRACK_MAX_DAYS } from '../../../shared/time/range';
import { convertSpeed, speedUnitOf } from '../../../shared/geo/units';
import { GPS_EXPORT_PAGE, reportApi, reportKeys, type GpsRow } from '../api';
import { writeXlsx } from '../../../shared/utils/xlsx';

export default function GpsDataPage() {
  const { t } = useTranslation('gpsreport');
  const { message } = App.useApp();
  useLiveDirectory();
  const tz = useSession((s) => s.session?.timeZoneMs ?? 0);
  const unit = speedUnitOf(useBranding((s) => s.clientConfig.speedUnit));
  const dateTime = useDateTimeFormat();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => [dayjs().startOf('day'), dayjs()]);
  const [query, setQuery] = useState<{ msIds: string[]; sTime: number; eTime: number }>();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 50 });
  const [error, setError] = useState<string>();
  const [exporting, setExporting] = useState(false);
  const q = useQuery({
    queryKey: reportKeys.gps({ ...query, ...page }),
    queryFn: () => reportApi.gpsData({ ...query!, ...page }),
    enabled: !!query,
  });

  const search = () => {
    setError(undefined);
    if (!msIds.length) return setError(t('needTerminal'));
    const problem = checkRange(range?.[0].valueOf(), range?.[1].valueOf(), TRACK_MAX_DAYS, tz);
    if (problem) return setError(t(`range.${problem}`, { days: TRACK_MAX_DAYS, code: RANGE_CODES[problem] }));
    setPage((p) => ({ ...p, pageNo: 1 }));
    setQuery({ msIds, sTime: range![0].valueOf(), eTime: range![1].valueOf() });
  };

  const exportAll = async () => {
    if (!query) return;
    setExporting(true);
    try {
      const rows: GpsRow[] = [];
      for (let pageNo = 1; ; pageNo++) {
        const r = await reportApi.gpsData({ ...query, pageNo, pageSize: GPS_EXPORT_PAGE });
        rows.push(...r.list);
        if (r.list.length < GPS_EXPORT_PAGE || rows.length >= r.total) break;
      }
      await writeXlsx(`gps-data-${dayjs(query.sTime).format('YYYYMMDD')}`, [
        {
          name: t('title'),
          columns: [
            { header: t('col.terminal'), key: 'name', width: 20 },
            { header: t('col.id'), key: 'msId', width: 12 },
            { header: t('col.time'), key: 'time', width: 20 },
            { header: t('col.lat'), key: 'lat', width: 12 },
            { header: t('col.lng'), key: 'lng', width: 12 },
            { header: `${t('col.speed')} (${unit})`, key: 'speed', width: 12 },
            { header: t('col.direction'), key: 'direction', width: 10 },
            { header: t('col.altitude'), key: 'altitude', width: 10 },
          ],
          rows: rows.map((r) => ({ ...r, time: dayjs(r.time).format(dateTime), speed: +convertSpeed(r.speed, unit).toFixed(2) })),
        },
      ]);
      message.success(t('exported', { count: rows.length }));
    } catch (e) {
      message.error(codeText(t, e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="page-pad report-page" data-testid="gps-data-page">
      <Card size="small" title={t('title')}>
        <Space wrap style={{ marginBottom: 12 }}>
          <TerminalPicker multiple value={msIds} onChange={setMsIds} placeholder={t('pickTerminals')} style={{ width: 320 }} testId="gps-terminals" />
          <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)} data-testid="gps-range" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="gps-search">
            {t('search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={exportAll} loading={exporting} disabled={!query || !q.data?.total} data-testid="gps-export">
            {t('export')}
          </Button>
        </Space>
        {(error || q.error) && <Alert type="error" showIcon title={error ?? codeText(t, q.error)} style={{ marginBottom: 12 }} data-testid="gps-error" />}
        <Table<GpsRow>
          size="small"
          rowKey={(r) => `${r.msId}-${r.time}`}
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          data-testid="gps-table"
          pagination={{ current: page.pageNo, pageSize: page.pageSize, total: q.data?.total ?? 0, showTotal: (n) => t('total', { count: n }), onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
          columns={[
            { key: 'name', title: t('col.terminal'), render: (_, r) => `${r.name || r.msId} (${r.msId})` },
            { key: 'time', title: t('col.time'), render: (_, r) => dayjs(r.time).format(dateTime), width: 180 },
            { key: 'pos', title: t('col.position'), render: (_, r) => `${r.lat.toFixed(6)}, ${r.lng.toFixed(6)}`, width: 200 },
            { key: 'speed', title: `${t('col.speed')} (${unit})`, render: (_, r) => convertSpeed(r.speed, unit).toFixed(2), width: 110 },
            { key: 'dir', title: t('col.direction'), render: (_, r) => `${r.direction.toFixed(0)}°`, width: 90 },
            { key: 'alt', title: t('col.altitude'), render: (_, r) => `${r.altitude} m`, width: 90 },
          ]}
        />
      </Card>
    </div>
  );
}
