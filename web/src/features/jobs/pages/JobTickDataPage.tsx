// /job-tick-data (+ child): job tickets by terminal and state over a time range (POST findJobReport, spec §5 time
// rules), with .xlsx export.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Space, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { RangeField, type WallRange } from '../../../shared/time/RangePicker';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { ApiError } from '../../../shared/http/client';
import { useErrorText } from '../../../shared/errorText';
import { writeXlsx } from '../../../shared/utils/xlsx';
import { checkWallRange, defaultWallRange, rangeProblemOf, rangeToMs, type RangeProblem } from '../../../shared/time/range';
import { formatZoned, wallNow } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { jobApi, jobKeys, type ReportRow } from '../api';

const COUNTS = ['unsettled', 'accepted', 'rejected', 'working', 'over'] as const;

export default function JobTickDataPage() {
  const { t } = useTranslation('jobs');
  const { message } = App.useApp();
  const errorText = useErrorText('jobs');
  const dateTime = useDateTimeFormat();
  const [range, setRange] = useState<WallRange>(() => defaultWallRange());
  const [msIds, setMsIds] = useState<string[]>([]);
  const [rangeError, setRangeError] = useState<RangeProblem | null>(null);
  const [query, setQuery] = useState(() => ({ ...rangeToMs(defaultWallRange()), msIds: undefined as string | undefined }));
  const q = useQuery({ queryKey: jobKeys.report(query), queryFn: () => jobApi.report(query), placeholderData: keepPreviousData });
  const data = q.data ?? { list: [], total: { msId: '', msName: '', total: 0, unsettled: 0, accepted: 0, rejected: 0, working: 0, over: 0 } };

  const search = () => {
    const err = checkWallRange(range) ?? null;
    setRangeError(err);
    if (err || !range) return;
    setQuery({ ...rangeToMs(range), msIds: msIds.length ? msIds.join(',') : undefined });
  };

  const doExport = async () => {
    try {
      await writeXlsx(`${t('report.file')}-${wallNow().format('YYYYMMDD-HHmm')}`, [
        {
          name: t('report.sheet'),
          columns: [
            { header: t('report.col.terminalId'), key: 'msId', width: 12 },
            { header: t('report.col.terminal'), key: 'msName', width: 20 },
            { header: t('report.col.total'), key: 'total', width: 10 },
            ...COUNTS.map((c, i) => ({ header: t(`state.${i}`), key: c, width: 12 })),
          ],
          rows: [
            ...data.list.map((r) => ({ ...r })),
            { ...data.total, msId: '', msName: t('report.sum') },
            { msId: '', msName: `${t('report.range')}: ${formatZoned(query.sTime, dateTime)} – ${formatZoned(query.eTime, dateTime)}` },
          ],
        },
      ]);
    } catch (e) {
      message.error(errorText(e));
    }
  };

  const serverRange = q.error instanceof ApiError ? rangeProblemOf(q.error.code) : undefined;
  return (
    <div className="page-pad" data-testid="job-tick-data-page" data-total={data.total.total}>
      <Card size="small" title={t('report.title')}>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <RangeField value={range} onChange={setRange} error={rangeError ?? serverRange ?? null} ns="jobs" />
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={msIds} onChange={setMsIds} placeholder={t('filter.terminals')} testId="terminal-select" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="job-report-search">
            {t('report.search')}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={doExport} disabled={!data.list.length} data-testid="job-report-export">
            {t('report.export')}
          </Button>
        </Space>
        <Table<ReportRow>
          size="small"
          rowKey="msId"
          loading={q.isLoading}
          dataSource={data.list}
          pagination={false}
          onRow={(r) => ({ 'data-testid': 'job-report-row', 'data-ms': r.msId, 'data-total': r.total }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'ms', title: t('report.col.terminal'), render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
            { key: 'total', title: t('report.col.total'), dataIndex: 'total', width: 90 },
            ...COUNTS.map((c, i) => ({ key: c, title: t(`state.${i}`), dataIndex: c, width: 100 })),
          ]}
          summary={() =>
            data.list.length > 0 && (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>
                  <strong>{t('report.sum')}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={1}>{data.total.total}</Table.Summary.Cell>
                {COUNTS.map((c, i) => (
                  <Table.Summary.Cell key={c} index={i + 2}>
                    {data.total[c]}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            )
          }
        />
      </Card>
    </div>
  );
}
