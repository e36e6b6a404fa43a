// Alarm search (GET findSos with a range): filters, a paged table kept current by the live events, actions per
// row (on /alarm) and .xlsx export. Used by /alarm and /emergcy-alarm-data (the SOS data report): the search row is
// the report toolbar, so the range, its presets and its checks are the other reports'.
import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Select } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { SOS_STATES, SOS_TYPES, sosApi, sosKeys, type SosAlarm, type SosQuery } from '../../../shared/alarms/sos';
import { useAlarmErrorText } from '../errors';
import { writeStampedXlsx } from '../../../shared/utils/xlsx';
import { historyEvents } from '../history';
import { useIsChild } from '../hooks';
import { sosActionsColumn } from './SosRowActions';
import { formatZoned } from '../../../shared/time/zone';
import { alarmColumns, alarmSheet } from './alarmColumns';
import { CloseDialog } from './CloseDialog';
import { commaList, useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { ChoicesFilter } from '../../../shared/report/ChoicesFilter';
import { ReportToolbar, useReportSearch } from '../../../shared/report/ReportShell';
import { fetchAllPages } from '../../../shared/report/fetchAll';

export function AlarmHistory({ actions, testId }: { actions: boolean; testId: string }) {
  const { t } = useTranslation('alarm');
  const errorText = useAlarmErrorText();
  const { message } = App.useApp();
  const child = useIsChild();
  const dateTime = useDateTimeFormat();
  const terminals = useTerminalFilter(t('filter.terminals'), 'filter-terminals');
  const [states, setStates] = useState<number[]>([]);
  const [type, setType] = useState<string | undefined>();
  const search = useReportSearch<Omit<SosQuery, 'sTime' | 'eTime' | 'pageNo' | 'pageSize'>>({});
  const query: SosQuery = useMemo(() => ({ ...search.query, ...search.page }), [search.query, search.page]);
  const [closing, setClosing] = useState<SosAlarm | null>(null);

  const q = useQuery({ queryKey: sosKeys.find(query), queryFn: () => sosApi.find(query), placeholderData: keepPreviousData, staleTime: Infinity });

  // Live: the SOS events replace listed alarms and put new matching ones first on page 1, in the cached page —
  // no search per event (each findSos is logged by the server). The socket coming (back) online searches again
  // once, since events may have been missed: the server logs that search too.
  useLiveQueries(historyEvents(query), sosKeys.find.all);

  const onSearch = () => search.apply({ msIds: terminals.joined, state: commaList(states), type });

  const fail = (e: unknown) => {
    message.error(errorText(e));
  };

  const doExport = async () => {
    const { list } = await fetchAllPages((pageNo, pageSize) => sosApi.find({ ...query, pageNo, pageSize }));
    const sheet = alarmSheet(t, dateTime);
    await writeStampedXlsx(t('export.sosFile'), [{ name: t('export.sosSheet'), columns: sheet.columns, rows: list.map(sheet.row) }]);
  };

  const page = q.data ?? { total: 0, list: [] };
  const columns = useMemo(() => {
    const base = alarmColumns(t, dateTime);
    if (!actions) return base;
    return [...base, sosActionsColumn(t, { testId: 'row', child, onClose: setClosing, fail }, page.list)];
  }, [t, dateTime, actions, child, page.list]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div data-testid={testId} data-total={page.total} data-loading={q.isFetching ? '1' : '0'}>
      <ReportToolbar
        ns="alarm"
        search={search}
        error={q.error}
        onSearch={onSearch}
        onExport={doExport}
        exportDisabled={!page.total}
        testIds={{ search: 'history-search', export: 'history-export' }}
        filters={
          <>
            {terminals.picker}
            <ChoicesFilter values={SOS_STATES} label={(s) => t(`state.${s}`)} value={states} onChange={setStates} placeholder={t('filter.state')} testId="filter-state" />
            <Select allowClear placeholder={t('filter.type')} style={{ minWidth: 140 }} value={type} onChange={setType} options={SOS_TYPES.map((s) => ({ value: s, label: t(`type.${s}`) }))} />
          </>
        }
      />
      <DataTable<SosAlarm>
        rowKey="id"
        loading={q.isLoading}
        dataSource={page.list}
        columns={columns}
        onRow={(a) => ({ 'data-testid': 'alarm-row', 'data-id': a.id, 'data-state': a.state }) as React.HTMLAttributes<HTMLElement>}
        pagination={{ ...search.pagination(page.total), showSizeChanger: true, showTotal: (n) => t('total', { count: n }) }}
        footer={() => t('rangeNote', { from: formatZoned(query.sTime, dateTime), to: formatZoned(query.eTime, dateTime) })}
      />
      <CloseDialog alarm={closing} onClose={() => setClosing(null)} />
    </div>
  );
}
