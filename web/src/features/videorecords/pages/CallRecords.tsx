// The "Calls and monitoring" tab of /video-records: recorded video calls and video monitorings (the terminal's
// camera and microphone; docs/video.md §5) by terminal and time range.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tag } from 'antd';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatBytes, formatDuration, sessionRecordApi, type SessionRecord } from '../api';
import { RecordSearch } from './RecordSearch';

export default function CallRecords() {
  const { t } = useTranslation('videorecords');
  const dateTime = useDateTimeFormat();
  const [msId, setMsId] = useState<string | undefined>();
  return (
    <RecordSearch<{ msId?: string }, SessionRecord>
      list="sessions"
      event="video.record"
      fetch={sessionRecordApi.list}
      filter={{ msId }}
      filters={<TerminalPicker value={msId} onChange={setMsId} placeholder={t('terminal')} style={{ minWidth: 240 }} testId="videorecords-terminal" />}
      emptyText={t('emptySessions')}
      titleOf={(r) => `${r.msName || r.msId} — ${formatZoned(r.startTime, dateTime)}`}
      testIds={{ search: 'videorecords-session-search', play: 'videorecords-session-play', video: 'videorecords-session-video', table: 'videorecords-sessions' }}
      columns={[
        { title: t('col.terminal'), key: 'terminal', render: (_, r) => `${r.msName || r.msId} (${r.msId})` },
        { title: t('col.kind'), key: 'kind', render: (_, r) => <Tag>{t(`kind.${r.kind}`)}</Tag> },
        { title: t('col.dispatcher'), key: 'by', render: (_, r) => r.byName || r.byId },
        { title: t('col.start'), key: 'start', render: (_, r) => formatZoned(r.startTime, dateTime) },
        { title: t('col.duration'), key: 'duration', render: (_, r) => formatDuration(r.durationMs) },
        { title: t('col.size'), key: 'size', render: (_, r) => formatBytes(r.bytes) },
        { title: t('col.codec'), key: 'codec', render: (_, r) => `${r.codec}${r.audio ? ' + Opus' : ''}` },
      ]}
    />
  );
}
