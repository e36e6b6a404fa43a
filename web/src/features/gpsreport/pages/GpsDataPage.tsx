// /gps-data: positions per terminal and time range (spec §2 reports; docs/geo.md "GPS report"), exportable.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { App, Table } from 'antd';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { TRACK_MAX_DAYS } from '../../../shared/time/range';
import { formatZoned } from '../../../shared/time/zone';
import { convertSpeed, speedUnitOf } from '../../../shared/geo/units';
import { fetchAllPages } from '../../../shared/report/fetchAll';
import { ReportShell, todayRange, useReportSearch } from '../../../shared/report/ReportShell';
import { GPS_EXPORT_PAGE, reportApi, reportKeys, type GpsRow } from '../api';
import { writeXlsx } from '../../../shared/utils/xlsx';

/** The server's code for a search without a terminal, told before asking it. */
const NEED_TERMINAL = { code: '61' };

export default function GpsDataPage() {
  const { t } = useTranslation('gpsreport');
  const { message } = App.useApp();
  useLiveDirectory();
  const unit = speedUnitOf(useBranding((s) => s.clientConfig.speedUnit));
  const dateTime = useDateTimeFormat();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [noTerminal, setNoTerminal] = useState(false);
  const search = useReportSearch({ msIds: [] as string[] }, { maxDays: TRACK_MAX_DAYS, range: todayRange, pageSize: 50 });
  const { query, page } = search;
  const q = useQuery({
    queryKey: reportKeys.gps({ ...query, ...page }),
    queryFn: () => reportApi.gpsData({ ...query, ...page }),
    enabled: search.searched,
  });

  const onSearch = () => {
    setNoTerminal(!msIds.length);
    if (msIds.length) search.apply({ msIds });
  };

  const exportAll = async () => {
    const { list: rows } = await fetchAllPages((pageNo, pageSize) => reportApi.gpsData({ ...query, pageNo, pageSize }), GPS_EXPORT_PAGE);
    await writeXlsx(`gps-data-${formatZoned(query.sTime, 'YYYYMMDD')}`, [
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
        rows: rows.map((r) => ({ ...r, time: formatZoned(r.time, dateTime), speed: +convertSpeed(r.speed, unit).toFixed(2) })),
      },
    ]);
    message.success(t('exported', { count: rows.length }));
  };

  return (
    <ReportShell
      ns="gpsreport"
      rangeNs="gpsreport"
      title={t('title')}
      testId="gps-data-page"
      search={search}
      error={noTerminal ? NEED_TERMINAL : q.error}
      filters={<TerminalPicker multiple value={msIds} onChange={setMsIds} placeholder={t('pickTerminals')} style={{ width: 320 }} testId="gps-terminals" />}
      onSearch={onSearch}
      onExport={exportAll}
      exportDisabled={!search.searched || !q.data?.total}
      testIds={{ search: 'gps-search', export: 'gps-export' }}
    >
      <Table<GpsRow>
        size="small"
        rowKey={(r) => `${r.msId}-${r.time}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        data-testid="gps-table"
        pagination={{ ...search.pagination(q.data?.total ?? 0), showTotal: (n) => t('total', { count: n }) }}
        columns={[
          { key: 'name', title: t('col.terminal'), render: (_, r) => `${r.name || r.msId} (${r.msId})` },
          { key: 'time', title: t('col.time'), render: (_, r) => formatZoned(r.time, dateTime), width: 180 },
          { key: 'pos', title: t('col.position'), render: (_, r) => `${r.lat.toFixed(6)}, ${r.lng.toFixed(6)}`, width: 200 },
          { key: 'speed', title: `${t('col.speed')} (${unit})`, render: (_, r) => convertSpeed(r.speed, unit).toFixed(2), width: 110 },
          { key: 'dir', title: t('col.direction'), render: (_, r) => `${r.direction.toFixed(0)}°`, width: 90 },
          { key: 'alt', title: t('col.altitude'), render: (_, r) => `${r.altitude} m`, width: 90 },
        ]}
      />
    </ReportShell>
  );
}
