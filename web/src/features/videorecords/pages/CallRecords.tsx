// The "Calls and monitoring" tab of /video-records: recorded video calls and video monitorings (the terminal's
// camera and microphone; docs/video.md §5) by terminal and time range (spec §5 range rules), played in the
// browser with seeking (WebM for VP8, MP4 for H.264), downloaded.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal, Space, Table, Tag } from 'antd';
import { DownloadOutlined, PlayCircleOutlined, SearchOutlined } from '@ant-design/icons';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { RangeFilter } from '../../../shared/time/RangePicker';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatBytes, formatDuration, recordFileUrl, sessionRecordApi, type SessionRecord } from '../api';
import { useRecordSearch } from './useRecordSearch';

export default function CallRecords() {
  const { t } = useTranslation('videorecords');
  const dateTime = useDateTimeFormat();
  const [msId, setMsId] = useState<string | undefined>();
  const [playing, setPlaying] = useState<SessionRecord | null>(null);
  const { q, range, setRange, rangeError, search, pagination } = useRecordSearch<{ msId?: string }, SessionRecord>(
    'sessions', 'video.record', {}, sessionRecordApi.list);

  return (
    <>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <TerminalPicker value={msId} onChange={setMsId} placeholder={t('terminal')} style={{ minWidth: 240 }} testId="videorecords-terminal" />
        <RangeFilter value={range} onChange={setRange} testid="videorecords-session-range" />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => search({ msId })} disabled={!!rangeError} data-testid="videorecords-session-search">
          {t('search')}
        </Button>
      </Space>
      <Table<SessionRecord>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        locale={{ emptyText: t('emptySessions') }}
        pagination={pagination}
        data-testid="videorecords-sessions"
        columns={[
          { title: t('col.terminal'), key: 'terminal', render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
          { title: t('col.kind'), key: 'kind', render: (_, r) => <Tag>{t(`kind.${r.kind}`)}</Tag> },
          { title: t('col.dispatcher'), key: 'by', render: (_, r) => r.byName || r.byId },
          { title: t('col.start'), key: 'start', render: (_, r) => formatZoned(r.startTime, dateTime) },
          { title: t('col.duration'), key: 'duration', render: (_, r) => formatDuration(r.durationMs) },
          { title: t('col.size'), key: 'size', render: (_, r) => formatBytes(r.bytes) },
          {
            title: t('col.codec'),
            key: 'codec',
            render: (_, r) => `${r.codec}${r.audio ? ' + Opus' : ''}`,
          },
          {
            title: t('col.actions'),
            key: 'actions',
            render: (_, r) => (
              <Space>
                <Button size="small" icon={<PlayCircleOutlined />} onClick={() => setPlaying(r)} data-testid="videorecords-session-play">
                  {t('play')}
                </Button>
                <Button size="small" icon={<DownloadOutlined />} href={recordFileUrl(r, true)}>
                  {t('download')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal open={!!playing} title={playing ? `${playing.msName || playing.msId} — ${formatZoned(playing.startTime, dateTime)}` : ''}
        footer={null} onCancel={() => setPlaying(null)} width={800} destroyOnHidden>
        {playing && (
          <video src={recordFileUrl(playing)} controls autoPlay style={{ width: '100%', background: '#000' }} data-testid="videorecords-session-video" />
        )}
      </Modal>
    </>
  );
}
