// The report page shell (issue 31): every report screen is a range with presets, filters (a terminal picker, a
// search, …), search and export buttons, statistics, charts and tables, in that order. The shell lays them out,
// checks the range (spec §5) and words failures with useErrorText; a page declares its query, its filters, its
// statistics, its charts and its table. Most reports search when the dispatcher says so (useReportSearch); a
// report cheap to ask again and read while it changes — the operation log, patrol statistics — follows its
// filters as they change, with no search button (useLiveReport).
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Col, Row, Space, Statistic, Tag } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { EChartsCoreOption } from 'echarts/core';
import { Chart } from '../charts/Chart';
import { RangeField } from '../time/RangePicker';
import { checkWallRange, defaultWallRange, rangeProblemOf, rangeToMs, type RangeProblem, type WallRange } from '../time/range';
import { wallNow } from '../time/zone';
import { failureCode, useErrorText } from '../errorText';

type Ms = ReturnType<typeof rangeToMs>;

/** The first rule of a report's range that r breaks, or undefined (null: no range picked). */
export type RangeRule = (r: WallRange | null) => RangeProblem | undefined;
/** Spec §5: within one calendar month of the customer's zone, and at most maxDays long (0: only the month rule). */
export const monthRule = (maxDays = 0): RangeRule => (r) => checkWallRange(r, maxDays);
/** Any range, or none (the operation log: its list takes an open range). */
export const anyRange: RangeRule = () => undefined;
/** Any range, but one (patrol statistics count the orders of its days, across months too). */
export const someRange: RangeRule = (r) => (r ? undefined : 'required');

interface SearchOptions {
  /** Longest range in days (0: only the month rule). */
  maxDays?: number;
  /** The range a page opens with (this month by default). */
  range?: () => WallRange;
  /** Rows a page for a paged report: the hook keeps the page, and a search goes back to the first. */
  pageSize?: number;
}

/** The table page of a report: kept while it is read, back to the first when what it shows changes. */
function useReportPage(pageSize: number) {
  const [page, setPage] = useState({ pageNo: 1, pageSize });
  const firstPage = () => setPage((p) => ({ ...p, pageNo: 1 }));
  /** The table's pagination over total rows. */
  const pagination = (total: number) => ({ current: page.pageNo, pageSize: page.pageSize, total, onChange: (pageNo: number, size: number) => setPage({ pageNo, pageSize: size }) });
  return { page, firstPage, pagination };
}

/** The range being edited and the query last searched: the range is checked when the dispatcher searches. */
export function useReportSearch<F extends object>(initial: F, { maxDays = 0, range: initialRange = defaultWallRange, pageSize = 20 }: SearchOptions = {}) {
  const [range, setRange] = useState<WallRange | null>(initialRange);
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState<F & Ms>(() => ({ ...initial, ...rangeToMs(initialRange()) }));
  const [searched, setSearched] = useState(false);
  const { page, firstPage, pagination } = useReportPage(pageSize);
  const rule = monthRule(maxDays);
  /** Searches filter over the edited range; false (and the problem shown at the range) when the range is refused. */
  const apply = (filter: F): boolean => {
    const problem = rule(range) ?? null;
    setRangeError(problem);
    if (problem || !range) return false;
    setQuery({ ...filter, ...rangeToMs(range) });
    firstPage();
    setSearched(true);
    return true;
  };
  return { range, setRange, rangeError, rule, query, searched, apply, page, pagination };
}

interface LiveOptions {
  /** What a range must be (anyRange by default: the page's server takes any). */
  rule?: RangeRule;
  /** The range a page opens with (none by default: everything). */
  range?: () => WallRange | null;
  pageSize?: number;
}

/**
 * A report that follows its filters as they change, with no search button: the page shows `filter` and changes it
 * with `change`; the query is the filter over the last range the rule took (a refused range is shown at the range
 * and leaves the rows as they were), with sTime/eTime absent while no range is picked. Any change goes back to
 * the first page.
 */
export function useLiveReport<F extends object>(initial: F, { rule = anyRange, range: initialRange = () => null, pageSize = 20 }: LiveOptions = {}) {
  const [filter, setFilter] = useState(initial);
  const [range, setEdited] = useState<WallRange | null>(initialRange);
  const [taken, setTaken] = useState<WallRange | null>(range);
  const { page, firstPage, pagination } = useReportPage(pageSize);
  const change = (patch: Partial<F>) => {
    setFilter((f) => ({ ...f, ...patch }));
    firstPage();
  };
  const setRange = (r: WallRange | null) => {
    setEdited(r);
    if (rule(r)) return;
    setTaken(r);
    firstPage();
  };
  const query: F & Partial<Ms> = { ...filter, ...(taken ? rangeToMs(taken) : {}) };
  return { range, setRange, rangeError: rule(range) ?? null, rule, filter, change, query, page, pagination };
}

/** What the toolbar reads of either hook. */
export interface ReportSearch {
  range: WallRange | null;
  setRange: (r: WallRange | null) => void;
  rangeError: RangeProblem | null;
  rule: RangeRule;
}

/** Today in the customer's zone, whole. */
export function todayRange(now = wallNow()): WallRange {
  return [now.startOf('day'), now.endOf('day')];
}

type Preset = 'today' | 'yesterday' | 'last7' | 'month';

/** The presets a range may take in one click. "Last 30 days" is not one: it always crosses a month, which the
 * server refuses (spec §5); a preset the page's rule refuses today (last 7 days early in a month) is not offered. */
export function rangePresets(rule: RangeRule, now = wallNow()): [Preset, WallRange][] {
  const today = now.startOf('day');
  const all: [Preset, WallRange][] = [
    ['today', todayRange(now)],
    ['yesterday', [today.subtract(1, 'day'), today.subtract(1, 'day').endOf('day')]],
    ['last7', [today.subtract(6, 'day'), now.endOf('day')]],
    ['month', [now.startOf('month'), now.endOf('day')]],
  ];
  return all.filter(([, r]) => !rule(r));
}

export interface ReportStat {
  key: string;
  title: ReactNode;
  value: ReactNode;
  suffix?: ReactNode;
  /** Drawn red (unacknowledged alarms). */
  alert?: boolean;
}

export interface ReportChart {
  testId: string;
  title: ReactNode;
  option: EChartsCoreOption;
  /** Columns of 24 on a wide screen. */
  xl: number;
}

interface ToolbarProps {
  /** The page's namespace: its own error codes. */
  ns: string;
  /** Where range.<problem> is worded: the common sentences, unless the page's limit is not a month (GPS data). */
  rangeNs?: string;
  search: ReportSearch;
  /** The report query's failure: a range the server refused is shown at the range, anything else below the filters. */
  error?: unknown;
  /** Filters beside the range: a terminal picker, groups, a kind. */
  filters?: ReactNode;
  /** The search button's action; none on a report that follows its filters (useLiveReport). */
  onSearch?: () => void;
  /** Writes the .xlsx; its failure is worded here. */
  onExport?: () => Promise<unknown>;
  exportDisabled?: boolean;
  testIds?: { search?: string; export?: string };
}

interface Props extends ToolbarProps {
  title: ReactNode;
  /** Above the report's card: a domain's navigation (patrol), a live feed (the operation log). */
  above?: ReactNode;
  testId: string;
  /** data-* attributes of the page (the browser tests read the rows, the totals and data-loading). */
  data?: Record<`data-${string}`, string | number>;
  note?: ReactNode;
  stats?: ReportStat[];
  charts?: ReportChart[];
  children?: ReactNode;
}

/** The search row of a report (range, presets, filters, search, export) and the failure under it; a page with
 * several reports in tabs (video records) has one per tab. */
export function ReportToolbar({ ns, rangeNs = 'common', search, error, filters, onSearch, onExport, exportDisabled, testIds }: ToolbarProps) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const errorText = useErrorText(ns);
  const [exporting, setExporting] = useState(false);
  const serverRange = error ? rangeProblemOf(failureCode(error) ?? '') : undefined;
  const doExport = async () => {
    setExporting(true);
    try {
      await onExport?.();
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <span>
          <RangeField value={search.range} onChange={search.setRange} error={search.rangeError ?? serverRange ?? null} ns={rangeNs} />
          <Space size={0} wrap data-testid="range-presets">
            {rangePresets(search.rule).map(([key, r]) => (
              <Button key={key} size="small" type="link" onClick={() => search.setRange(r)} data-testid={`range-preset-${key}`}>
                {t(`report.presets.${key}`)}
              </Button>
            ))}
          </Space>
        </span>
        {filters}
        {onSearch && (
          <Button type="primary" icon={<SearchOutlined />} onClick={onSearch} data-testid={testIds?.search ?? 'report-search'}>
            {t('report.search')}
          </Button>
        )}
        {onExport && (
          <Button icon={<DownloadOutlined />} onClick={() => void doExport()} loading={exporting} disabled={exportDisabled} data-testid={testIds?.export ?? 'report-export'}>
            {t('report.export')}
          </Button>
        )}
      </Space>
      {error && !serverRange ? (
        <Tag color="red" data-testid="report-error">
          {errorText(error)}
        </Tag>
      ) : null}
    </>
  );
}

export function ReportShell({ title, above, testId, data, note, stats, charts, children, ...toolbar }: Props) {
  return (
    <div className="page-pad" data-testid={testId} {...data}>
      {above}
      <Card size="small" title={title}>
        <ReportToolbar {...toolbar} />
        {note}
        {stats?.length ? (
          <Row gutter={16} style={{ marginBottom: 12 }}>
            {stats.map((s) => (
              <Col key={s.key} span={24 / stats.length}>
                <Statistic title={s.title} value={s.value as number | string} suffix={s.suffix} styles={s.alert ? { content: { color: '#ff4d4f' } } : undefined} />
              </Col>
            ))}
          </Row>
        ) : null}
        {charts?.length ? (
          <Row gutter={16} style={{ marginBottom: 12 }}>
            {charts.map((c) => (
              <Col key={c.testId} xs={24} xl={c.xl}>
                <Card size="small" type="inner" title={c.title}>
                  <Chart option={c.option} testId={c.testId} />
                </Card>
              </Col>
            ))}
          </Row>
        ) : null}
        {children}
      </Card>
    </div>
  );
}
