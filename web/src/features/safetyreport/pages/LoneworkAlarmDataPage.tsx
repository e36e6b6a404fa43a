// /lonework-alarm-data (+ child): lone-work alarms of a range (POST findLoneWorkAlarm), with .xlsx export.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Table, Tag, Typography } from 'antd';
import { useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { loneAlarmApi, loneAlarmKeys, type LoneAlarm } from '../../../shared/alarms/lonework';
import { ReportShell, useReportSearch } from '../../../shared/report/ReportShell';

export default function LoneworkAlarmDataPage() {
  const { t } = useTranslation('safetyreport');
  const dateTime = useDateTimeFormat();
  const terminals = useTerminalFilter(t('filter.terminals'));
  const search = useReportSearch({ msIds: undefined as string | undefined });
  const { query, page: paging } = search;
  const q = useQuery({ queryKey: loneAlarmKeys.report({ ...query, ...paging }), queryFn: () => loneAlarmApi.report({ ...query, ...paging }), placeholderData: keepPreviousData });
  const page = q.data ?? { total: 0, list: [] };

  const reason = (n: number) => t(`lonework:reason.${n}`);
  const doExport = async () => {
    const all = await loneAlarmApi.report({ ...query, pageNo: 1, pageSize: 1000 });
    await writeStampedXlsx(t('export.loneFile'), [{
      name: t('export.loneSheet'),
      columns: [
        { header: t('col.terminalId'), key: 'msId', width: 12 },
        { header: t('col.terminal'), key: 'msName', width: 20 },
        { header: t('col.reason'), key: 'reason', width: 16 },
        { header: t('col.alarmTime'), key: 'time', width: 20 },
        { header: t('col.handler'), key: 'handler', width: 18 },
        { header: t('col.handleTime'), key: 'handleTime', width: 20 },
        { header: t('col.remark'), key: 'remark', width: 40 },
        { header: t('col.plan'), key: 'workId', width: 10 },
      ],
      rows: all.list.map((a) => ({
        msId: a.msId,
        msName: a.msName,
        reason: reason(a.reason),
        time: formatZoned(a.alarmTime, dateTime),
        handler: a.handlerName || a.handler || '',
        handleTime: a.handleTime ? formatZoned(a.handleTime, dateTime) : '',
        remark: a.remark,
        workId: a.workId,
      })),
    }]);
  };

  return (
    <ReportShell
      ns="safetyreport"
      title={t('lone.title')}
      testId="lonework-alarm-data-page"
      data={{ 'data-total': page.total }}
      search={search}
      error={q.error}
      filters={terminals.picker}
      onSearch={() => search.apply({ msIds: terminals.joined })}
      onExport={doExport}
      exportDisabled={!page.total}
      testIds={{ search: 'lone-search', export: 'lone-export' }}
    >
      <Table<LoneAlarm>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={page.list}
        onRow={(a) => ({ 'data-testid': 'lone-alarm-row', 'data-id': a.id, 'data-reason': a.reason }) as React.HTMLAttributes<HTMLElement>}
        pagination={{ ...search.pagination(page.total), showSizeChanger: true }}
        columns={[
          { key: 'ms', title: t('col.terminal'), render: (_, a) => `${a.msName || a.msId} (${a.msId})` },
          { key: 'reason', title: t('col.reason'), render: (_, a) => <Tag color="volcano">{reason(a.reason)}</Tag>, width: 140 },
          { key: 'time', title: t('col.alarmTime'), render: (_, a) => formatZoned(a.alarmTime, dateTime), width: 180 },
          { key: 'handler', title: t('col.handler'), render: (_, a) => a.handlerName || a.handler || '—', width: 150 },
          { key: 'handleTime', title: t('col.handleTime'), render: (_, a) => formatZoned(a.handleTime, dateTime), width: 180 },
          { key: 'remark', title: t('col.remark'), render: (_, a) => <Typography.Text ellipsis={{ tooltip: a.remark }} style={{ maxWidth: 240 }}>{a.remark || '—'}</Typography.Text> },
        ]}
      />
    </ReportShell>
  );
}
