// Alarm search (GET findSos with a range): filters, a paged table kept current by the live events, actions per
// row (on /alarm) and .xlsx export. Used by /alarm and /emergcy-alarm-data.
import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Select, Space, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { live } from '../../../shared/socket/live';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { normaliseAlarm, SOS_STATES, SOS_TYPES, sosApi, sosKeys, type SosAlarm, type SosQuery } from '../../../shared/alarms/sos';
import { useAlarmErrorText } from '../errors';
import { failureCode } from '../../../shared/errorText';
import { writeXlsx } from '../../../shared/utils/xlsx';
import { patchPage } from '../history';
import { useIsChild } from '../hooks';
import { sosActionsColumn } from './SosRowActions';
import { checkWallRange, defaultWallRange, rangeProblemOf, rangeToMs, type RangeProblem } from '../../../shared/time/range';
import { formatZoned, wallNow } from '../../../shared/time/zone';
import { alarmColumns, alarmSheet } from './alarmColumns';
import { CloseDialog } from './CloseDialog';
import { RangeField } from '../../../shared/time/RangePicker';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';

export function AlarmHistory({ actions, testId }: { actions: boolean; testId: string }) {
  const { t } = useTranslation('alarm');
  const errorText = useAlarmErrorText();
  const { message } = App.useApp();
  const child = useIsChild();
  const qc = useQueryClient();
  const dateTime = useDateTimeFormat();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => defaultWallRange());
  const [msIds, setMsIds] = useState<string[]>([]);
  const [states, setStates] = useState<number[]>([]);
  const [type, setType] = useState<string | undefined>();
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState<SosQuery>(() => ({ ...rangeToMs(defaultWallRange()), pageNo: 1, pageSize: 20 }));
  const [closing, setClosing] = useState<SosAlarm | null>(null);
  const [exporting, setExporting] = useState(false);

  const q = useQuery({ queryKey: sosKeys.find(query), queryFn: () => sosApi.find(query), placeholderData: keepPreviousData, staleTime: Infinity });
  const serverRangeError = q.error ? rangeProblemOf(failureCode(q.error) ?? '') : undefined;

  // Live: replace listed alarms, put new matching ones first on page 1.
  useEffect(() => {
    const patch = (raw: SosAlarm) => {
      const a = normaliseAlarm(raw);
      qc.setQueryData<{ total: number; list: SosAlarm[] }>(sosKeys.find(query), (page) => (page ? patchPage(page, a, query) : page));
    };
    const offs = [live().on<SosAlarm>('sos.alarm', (e) => patch(e.data)), live().on<SosAlarm>('sos.updated', (e) => patch(e.data))];
    return () => offs.forEach((off) => off());
  }, [qc, query]);

  const search = () => {
    const err = checkWallRange(range) ?? null;
    setRangeError(err);
    if (err || !range) return;
    setQuery({
      ...rangeToMs(range),
      msIds: msIds.length ? msIds.join(',') : undefined,
      state: states.length ? states.join(',') : undefined,
      type,
      pageNo: 1,
      pageSize: query.pageSize,
    });
  };

  const fail = (e: unknown) => {
    message.error(errorText(e));
  };

  const doExport = async () => {
    setExporting(true);
    try {
      const all = await sosApi.find({ ...query, pageNo: 1, pageSize: 1000 });
      const sheet = alarmSheet(t, dateTime);
      await writeXlsx(`${t('export.sosFile')}-${wallNow().format('YYYYMMDD-HHmm')}`, [{ name: t('export.sosSheet'), columns: sheet.columns, rows: all.list.map(sheet.row) }]);
    } catch (e) {
      fail(e);
    } finally {
      setExporting(false);
    }
  };

  const columns = useMemo(() => {
    const base = alarmColumns(t, dateTime);
    if (!actions) return base;
    return [...base, sosActionsColumn(t, { testId: 'row', child, onClose: setClosing, fail })];
  }, [t, dateTime, actions, child]); // eslint-disable-line react-hooks/exhaustive-deps

  const page = q.data ?? { total: 0, list: [] };
  return (
    <div data-testid={testId} data-total={page.total} data-loading={q.isFetching ? '1' : '0'}>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <RangeField value={range} onChange={setRange} error={rangeError ?? serverRangeError ?? null} ns="alarm" />
        <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="filter-terminals" />
        <Select
          mode="multiple"
          allowClear
          placeholder={t('filter.state')}
          style={{ minWidth: 160 }}
          value={states}
          onChange={setStates}
          options={SOS_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          data-testid="filter-state"
        />
        <Select allowClear placeholder={t('filter.type')} style={{ minWidth: 140 }} value={type} onChange={setType} options={SOS_TYPES.map((s) => ({ value: s, label: t(`type.${s}`) }))} />
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="history-search">
          {t('filter.search')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={doExport} loading={exporting} disabled={!page.total} data-testid="history-export">
          {t('export.button')}
        </Button>
      </Space>
      <Table<SosAlarm>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={page.list}
        columns={columns}
        scroll={{ x: 1900 }}
        onRow={(a) => ({ 'data-testid': 'alarm-row', 'data-id': a.id, 'data-state': a.state }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: query.pageNo,
          pageSize: query.pageSize,
          total: page.total,
          showSizeChanger: true,
          showTotal: (n) => t('total', { count: n }),
          onChange: (pageNo, pageSize) => setQuery((x) => ({ ...x, pageNo, pageSize })),
        }}
        footer={() => t('rangeNote', { from: formatZoned(query.sTime, dateTime), to: formatZoned(query.eTime, dateTime) })}
      />
      <CloseDialog alarm={closing} onClose={() => setClosing(null)} />
    </div>
  );
}
