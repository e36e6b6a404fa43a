// One search over a list of recordings, as both tabs of /video-records run it: the report toolbar (a range
// checked by the spec §5 rules, at most a month; the tab's filters), pages of RECORD_PAGE_SIZE, the list
// refreshed when the named live event says a recording started or ended, and each row played in the browser
// (with seeking: WebM for VP8, MP4 for H.264) or downloaded.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { MONTH_DAYS } from '../../../shared/time/range';
import { ReportToolbar, useReportSearch } from '../../../shared/report/ReportShell';
import { recordFileUrl, recordKeys, RECORD_PAGE_SIZE } from '../api';

type Ms = { sTime: number; eTime: number };

interface Props<F extends object, R extends { id: number; url: string }> {
  list: 'records' | 'sessions';
  /** The live event that tells a recording of this list started or ended. */
  event: string;
  fetch: (q: F & Ms & { pageNo: number; pageSize: number }) => Promise<{ total: number; list: R[] }>;
  /** The filter as the tab's fields hold it now, applied on "search". */
  filter: F;
  filters: ReactNode;
  columns: ColumnsType<R>;
  emptyText: string;
  /** The player's title. */
  titleOf: (r: R) => string;
  /** A recording still being written is not offered for download. */
  downloadable?: (r: R) => boolean;
  testIds: { search: string; play: string; video: string; table?: string };
}

export function RecordSearch<F extends object, R extends { id: number; url: string }>({ list, event, fetch, filter, filters, columns, emptyText, titleOf, downloadable, testIds }: Props<F, R>) {
  const { t } = useTranslation('videorecords');
  const [playing, setPlaying] = useState<R | null>(null);
  const search = useReportSearch(filter, { maxDays: MONTH_DAYS, pageSize: RECORD_PAGE_SIZE });
  const { query, page } = search;
  const q = useQuery({ queryKey: recordKeys[list](query, page.pageNo), queryFn: () => fetch({ ...query, ...page }) });
  useLiveQueries({ [event]: [recordKeys[list].all] }, recordKeys[list].all);

  return (
    <>
      <ReportToolbar ns="videorecords" search={search} error={q.error} filters={filters} onSearch={() => search.apply(filter)} testIds={{ search: testIds.search }} />
      <Table<R>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        locale={{ emptyText }}
        pagination={{ ...search.pagination(q.data?.total ?? 0), showSizeChanger: false }}
        data-testid={testIds.table}
        columns={[
          ...columns,
          {
            title: t('col.actions'),
            key: 'actions',
            render: (_, r) => (
              <Space>
                <Button size="small" icon={<PlayCircleOutlined />} onClick={() => setPlaying(r)} data-testid={testIds.play}>
                  {t('play')}
                </Button>
                <Button size="small" icon={<DownloadOutlined />} href={recordFileUrl(r, true)} disabled={downloadable ? !downloadable(r) : false}>
                  {t('download')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal open={!!playing} title={playing ? titleOf(playing) : ''} footer={null} onCancel={() => setPlaying(null)} width={800} destroyOnHidden>
        {playing && <video src={recordFileUrl(playing)} controls autoPlay style={{ width: '100%', background: '#000' }} data-testid={testIds.video} />}
      </Modal>
    </>
  );
}
