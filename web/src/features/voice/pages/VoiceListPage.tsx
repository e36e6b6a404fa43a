import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Select, Space, Table, Tag, Tooltip } from 'antd';
import { DownloadOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useLiveStatus } from '../../../shared/socket/live';
import { canPlay, fmtDuration, fmtUs, type CallKind, type VoiceRecord } from '../../../shared/voice/protocol';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { MONTH_DAYS } from '../../../shared/time/range';
import { formatZoned } from '../../../shared/time/zone';
import { ReportShell, todayRange, useReportSearch } from '../../../shared/report/ReportShell';
import { recordUrl, voiceApi, voiceKeys } from '../api';
import '../../../shared/voice/voice.css';

const KINDS: CallKind[] = ['group', 'single', 'temp', 'all', 'broadcast'];
const FMT = 'YYYY-MM-DD HH:mm:ss';

/** /voice-list and /voice-list-child: call records (one talk burst each) with filters, inline play, download. */
export default function VoiceListPage() {
  const { t } = useTranslation('voice');
  const status = useLiveStatus((s) => s.status);
  useLiveDirectory();
  const terminals = useDirectory((s) => s.terminals);
  const groups = useDirectory((s) => s.groups);
  const [msId, setMsId] = useState<string>();
  const [gid, setGid] = useState<string>();
  const [type, setType] = useState<CallKind>();
  const search = useReportSearch({} as { msId?: string; gid?: string; type?: CallKind }, { maxDays: MONTH_DAYS, range: todayRange });
  const { query, page } = search;
  const [playing, setPlaying] = useState<string>();

  const q = useQuery({
    queryKey: voiceKeys.records(query, page),
    queryFn: () => voiceApi.records({ stime: query.sTime, etime: query.eTime, msId: query.msId, gid: query.gid, type: query.type, ...page }),
  });
  const groupOptions = useMemo(() => Object.values(groups).map((g) => ({ value: g.gid, label: g.name })), [groups]);

  return (
    <ReportShell
      ns="voice"
      title={t('records.title')}
      testId="voice-list-page"
      data={{ 'data-socket': status }}
      search={search}
      error={q.error}
      filters={
        <>
          <TerminalPicker value={msId} onChange={setMsId} placeholder={t('records.terminal')} testId="records-terminal" />
          <Select allowClear placeholder={t('records.group')} style={{ width: 180 }} value={gid} onChange={setGid} options={groupOptions} data-testid="records-group" />
          <Select allowClear placeholder={t('records.type')} style={{ width: 150 }} value={type} onChange={setType} options={KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="records-type" />
        </>
      }
      onSearch={() => search.apply({ msId, gid, type })}
      testIds={{ search: 'records-search' }}
    >
      <Table<VoiceRecord>
        size="small"
        rowKey={(r) => `${r.callid}:${r.btime}:${r.id}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        data-testid="records-table"
        onRow={(r) => ({ 'data-testid': 'record-row', 'data-callid': r.callid, 'data-ms-id': r.msId, 'data-quality': r.quality } as React.HTMLAttributes<HTMLElement>)}
        pagination={{ ...search.pagination(q.data?.total ?? 0), showSizeChanger: true, pageSizeOptions: [20, 50, 100, 1000] }}
        columns={[
          { key: 'btime', title: t('records.col.time'), render: (_, r) => formatZoned(r.btime, FMT), width: 170 },
          { key: 'type', title: t('records.col.type'), render: (_, r) => <Tag>{t(`kind.${r.type}`, { defaultValue: r.type })}</Tag>, width: 110 },
          {
            key: 'where',
            title: t('records.col.where'),
            render: (_, r) => r.gName || (r.peers ? r.peers.split(',').map((id) => terminals[id.trim()]?.name || id.trim()).join(', ') : '—'),
          },
          { key: 'talker', title: t('records.col.talker'), render: (_, r) => `${r.msName || r.msId}` },
          { key: 'duration', title: t('records.col.duration'), render: (_, r) => <span data-testid="record-duration">{fmtDuration(r.duration)}</span>, width: 90 },
          { key: 'quality', title: t('records.col.quality'), render: (_, r) => <Tag color={r.quality === 'SD' ? 'default' : 'blue'}>{r.quality}</Tag>, width: 80 },
          {
            key: 'access',
            title: (
              <Tooltip title={t('records.col.accessHint')}>
                <span>{t('records.col.access')}</span>
              </Tooltip>
            ),
            render: (_, r) => (
              <span className="vcall-stats">
                {fmtUs(r.accessUs)} / {fmtUs(r.firstPacketUs)}
              </span>
            ),
            width: 130,
          },
          {
            key: 'delay',
            title: (
              <Tooltip title={t('records.col.delayHint')}>
                <span>{t('records.col.delay')}</span>
              </Tooltip>
            ),
            render: (_, r) => <span className="vcall-stats">{fmtUs(r.delayP99Us)}</span>,
            width: 100,
          },
          {
            key: 'actions',
            title: t('records.col.actions'),
            width: 300,
            render: (_, r) => {
              const key = `${r.callid}:${r.btime}`;
              if (!canPlay(r))
                return (
                  <Tooltip title={t('records.sdHint')}>
                    <Space size={4} data-testid="record-sd">
                      <Button size="small" icon={<PlayCircleOutlined />} disabled aria-label={t('records.play')} />
                      <Button size="small" icon={<DownloadOutlined />} disabled aria-label={t('records.download')} />
                    </Space>
                  </Tooltip>
                );
              return (
                <Space size={4}>
                  {playing === key ? (
                    <>
                      <audio src={recordUrl(r)} controls autoPlay onEnded={() => setPlaying(undefined)} data-testid="record-audio" />
                      <Button size="small" icon={<PauseCircleOutlined />} onClick={() => setPlaying(undefined)} aria-label={t('records.stop')} />
                    </>
                  ) : (
                    <Button size="small" icon={<PlayCircleOutlined />} onClick={() => setPlaying(key)} data-testid="record-play">
                      {t('records.play')}
                    </Button>
                  )}
                  <Button size="small" icon={<DownloadOutlined />} href={recordUrl(r, true)} download data-testid="record-download" aria-label={t('records.download')} />
                </Space>
              );
            },
          },
        ]}
      />
    </ReportShell>
  );
}
