// /video-records and /video-records-child: camera recordings by camera and time range (spec §5 range rules),
// and recorded video calls and monitorings by terminal (the "Calls and monitoring" tab, CallRecords.tsx),
// played in the browser with seeking, downloaded.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Modal, Select, Space, Table, Tabs, Tag } from 'antd';
import { DownloadOutlined, PlayCircleOutlined, SearchOutlined } from '@ant-design/icons';
import { RangeFilter } from '../../../shared/time/RangePicker';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatDuration, recordFileUrl, videoRecordApi, type VideoRecord } from '../api';
import CallRecords from './CallRecords';
import { useRecordSearch } from './useRecordSearch';

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
  const dateTime = useDateTimeFormat();
  const cameras = useQuery({ queryKey: ['videorecords', 'cameras'], queryFn: videoRecordApi.cameras });
  const [streams, setStreams] = useState<string[]>([]);
  const [playing, setPlaying] = useState<VideoRecord | null>(null);
  const { q, range, setRange, rangeError, search, pagination } = useRecordSearch<{ streams: string[] }, VideoRecord>(
    'list', 'camera.record', { streams: [] }, videoRecordApi.list);

  return (
    <>
      <div>
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <Select mode="multiple" allowClear placeholder={t('cameras')} value={streams} onChange={setStreams} style={{ minWidth: 260 }}
            maxTagCount="responsive" data-testid="videorecords-cameras"
            options={(cameras.data?.list ?? []).map((c) => ({ value: c.streamId, label: c.name || c.streamId }))} />
          <RangeFilter value={range} onChange={setRange} testid="videorecords-range" />
          <Button type="primary" icon={<SearchOutlined />} onClick={() => search({ streams })} disabled={!!rangeError} data-testid="videorecords-search">
            {t('search')}
          </Button>
        </Space>
        <Table<VideoRecord>
          rowKey="id"
          size="small"
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          locale={{ emptyText: t('empty') }}
          pagination={pagination}
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
