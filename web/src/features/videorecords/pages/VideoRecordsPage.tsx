// /video-records and /video-records-child: camera recordings by camera and time range (spec §5 range rules),
// and recorded video calls and monitorings by terminal (the "Calls and monitoring" tab, CallRecords.tsx),
// played in the browser with seeking, downloaded.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Card, Select, Tabs, Tag } from 'antd';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatDuration, recordKeys, videoRecordApi, type VideoRecord } from '../api';
import CallRecords from './CallRecords';
import { RecordSearch } from './RecordSearch';

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
  const cameras = useQuery({ queryKey: recordKeys.cameras(), queryFn: videoRecordApi.cameras });
  const [streams, setStreams] = useState<string[]>([]);
  return (
    <RecordSearch<{ streams: string[] }, VideoRecord>
      list="records"
      event="camera.record"
      fetch={videoRecordApi.list}
      filter={{ streams }}
      filters={
        <Select mode="multiple" allowClear placeholder={t('cameras')} value={streams} onChange={setStreams} style={{ minWidth: 260 }}
          maxTagCount="responsive" data-testid="videorecords-cameras"
          options={(cameras.data?.list ?? []).map((c) => ({ value: c.streamId, label: c.name || c.streamId }))} />
      }
      emptyText={t('empty')}
      titleOf={(r) => `${r.name} — ${formatZoned(r.startTime, dateTime)}${r.endTime ? ` · ${formatDuration(r.duration)}` : ''}`}
      downloadable={(r) => !!r.endTime}
      testIds={{ search: 'videorecords-search', play: 'videorecords-play', video: 'videorecords-video' }}
      columns={[
        { title: t('col.camera'), key: 'camera', render: (_, r) => `${r.name || r.streamId} (${r.streamId})` },
        { title: t('col.start'), key: 'start', render: (_, r) => formatZoned(r.startTime, dateTime) },
        { title: t('col.duration'), key: 'duration', render: (_, r) => (r.endTime ? formatDuration(r.duration) : <Tag color="red">{t('recording')}</Tag>) },
        { title: t('col.remark'), dataIndex: 'remark', key: 'remark' },
        { title: t('col.by'), dataIndex: 'startedBy', key: 'by' },
      ]}
    />
  );
}
