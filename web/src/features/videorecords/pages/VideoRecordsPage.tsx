// /video-records and /video-records-child: camera recordings by camera and time range (spec §5 range rules),
// and recorded video calls and monitorings by terminal (the "Calls and monitoring" tab, CallRecords.tsx),
// played in the browser with seeking, downloaded.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Modal, Select, Space, Table, Tabs, Tag } from 'antd';
import { DownloadOutlined, PlayCircleOutlined, SearchOutlined } from '@ant-design/icons';
import { ApiError } from '../../../shared/http/client';
import { live } from '../../../shared/socket/live';
import { RangeFilter, type WallRange } from '../../../shared/time/RangePicker';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeToMs } from '../../../shared/time/range';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatDuration, RECORD_PAGE_SIZE, recordFileUrl, videoRecordApi, type VideoRecord } from '../api';
import CallRecords from './CallRecords';

interface Applied {
  streams: string[];
  sTime: number;
  eTime: number;
}

export default function VideoRecordsPage() {
  const { t } = useTranslation('videorecords');
  return (
    <div className="page-pad" data-testid="videorecords-page">
      <Card size="small" title={t('title')}>
        <Tabs destroyOnHidden items={[
          { key: 'cameras', label: t('tab.cameras'), children: <CameraRecords /> },
          { key: 'sessions', label: <span data-testid="videorecords-tab-sessions">{t('tab.sessions')}</span>, children: <CallRecords /> },
        ]} />
      </Card>
    </div>
  );
}

function CameraRecords() {
  const { t } = useTranslation('videorecords');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  const cameras = useQuery({ queryKey: ['videorecords', 'cameras'], queryFn: videoRecordApi.cameras });
  const [streams, setStreams] = useState<string[]>([]);
  const [range, setRange] = useState<WallRange>(() => defaultWallRange());
  const [applied, setApplied] = useState<Applied>(() => ({ streams: [], ...rangeToMs(defaultWallRange()) }));
  const [page, setPage] = useState(1);
  const [playing, setPlaying] = useState<VideoRecord | null>(null);
  const q = useQuery({
    queryKey: ['videorecords', 'list', applied, page],
    queryFn: () => videoRecordApi.list({ ...applied, pageNo: page, pageSize: RECORD_PAGE_SIZE }),
  });
  const { refetch } = q;
  useEffect(() => {
    if (q.error) {
      const code = q.error instanceof ApiError ? q.error.code : 'other';
      message.error(t(`codes.${code}`, { defaultValue: t('codes.other', { code }) }));
    }
  }, [q.error]); // eslint-disable-line react-hooks/exhaustive-deps
  // a recording that starts or ends while the list is open
  useEffect(() => live().on('camera.record', () => void refetch()), [refetch]);

  const rangeError = checkWallRange(range, MONTH_DAYS);
  const search = () => {
    if (rangeError || !range) return;
    setApplied({ streams, ...rangeToMs(range) });
    setPage(1);
  };

  return (
    <>
      <div>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <Select mode="multiple" allowClear placeholder={t('cameras')} value={streams} onChange={setStreams} style={{ minWidth: 260 }}
            maxTagCount="responsive" data-testid="videorecords-cameras"
            options={(cameras.data?.list ?? []).map((c) => ({ value: c.streamId, label: c.name || c.streamId }))} />
          <RangeFilter value={range} onChange={setRange} testid="videorecords-range" />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} disabled={!!rangeError} data-testid="videorecords-search">
            {t('search')}
          </Button>
        </Space>
        <Table<VideoRecord>
          rowKey="id"
          size="small"
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          locale={{ emptyText: t('empty') }}
          pagination={{ current: page, pageSize: RECORD_PAGE_SIZE, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: t('col.camera'), key: 'camera', render: (_, r) => `${r.name || r.streamId} (${r.streamId})` },
            { title: t('col.start'), key: 'start', render: (_, r) => formatZoned(r.startTime, dateTime) },
            {
              title: t('col.duration'),
              key: 'duration',
              render: (_, r) => (r.endTime ? formatDuration(r.duration) : <Tag color="red">{t('recording')}</Tag>),
            },
            { title: t('col.remark'), dataIndex: 'remark', key: 'remark' },
            { title: t('col.by'), dataIndex: 'startedBy', key: 'by' },
            {
              title: t('col.actions'),
              key: 'actions',
              render: (_, r) => (
                <Space>
                  <Button size="small" icon={<PlayCircleOutlined />} onClick={() => setPlaying(r)} data-testid="videorecords-play">
                    {t('play')}
                  </Button>
                  <Button size="small" icon={<DownloadOutlined />} href={recordFileUrl(r, true)} disabled={!r.endTime}>
                    {t('download')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </div>
      <Modal open={!!playing} title={playing ? `${playing.name} — ${formatZoned(playing.startTime, dateTime)}` : ''} footer={null}
        onCancel={() => setPlaying(null)} width={800} destroyOnHidden>
        {playing && (
          <video src={recordFileUrl(playing)} controls autoPlay style={{ width: '100%', background: '#000' }} data-testid="videorecords-video" />
        )}
      </Modal>
    </>
  );
}
