import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, DatePicker, Select, Space, Table, Tag, Tooltip } from 'antd';
import { DownloadOutlined, PauseCircleOutlined, PlayCircleOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { useLiveStatus } from '../../../shared/socket/live';
import { canPlay, fmtDuration, fmtUs, type CallKind, type VoiceRecord } from '../../../shared/voice/protocol';
import { useSession } from '../../../shared/session';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { recordUrl, voiceApi, type RecordQuery } from '../api';
import { voiceErrorText } from '../../../shared/voice/errors';
import { checkRange, MONTH_DAYS, startOfDay } from '../../../shared/time/range';
import '../../../shared/voice/voice.css';

const KINDS: CallKind[] = ['group', 'single', 'temp', 'all', 'broadcast'];
const FMT = 'YYYY-MM-DD HH:mm:ss';

/** /voice-list and /voice-list-child: call records (one talk burst each) with filters, inline play, download. */
export default function VoiceListPage() {
  const { t } = useTranslation('voice');
  const status = useLiveStatus((s) => s.status);
  const tzMs = useSession((s) => s.session?.timeZoneMs ?? 0);
  useLiveDirectory();
  const terminals = useDirectory((s) => s.terminals);
  const groups = useDirectory((s) => s.groups);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => [dayjs(startOfDay(Date.now(), tzMs)), dayjs()]);
  const [msId, setMsId] = useState<string>();
  const [gid, setGid] = useState<string>();
  const [type, setType] = useState<CallKind>();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [query, setQuery] = useState<RecordQuery | null>(() => ({ stime: startOfDay(Date.now(), tzMs), etime: Date.now() }));
  const [playing, setPlaying] = useState<string>();

  const rangeError = checkRange(range?.[0]?.valueOf(), range?.[1]?.valueOf(), MONTH_DAYS, tzMs);
  const search = () => {
    if (rangeError || !range) return;
    setPage((p) => ({ ...p, pageNo: 1 }));
    setQuery({ stime: range[0].valueOf(), etime: range[1].valueOf(), msId, gid, type });
  };

  const q = useQuery({
    queryKey: ['voice', 'records', query, page],
    queryFn: () => voiceApi.records({ ...query!, pageNo: page.pageNo, pageSize: page.pageSize }),
    enabled: !!query,
  });

  const terminalOptions = useMemo(
    () => Object.values(terminals).map((x) => ({ value: x.cid, label: `${x.name || x.cid} (${x.cid})` })),
    [terminals],
  );
  const groupOptions = useMemo(() => Object.values(groups).map((g) => ({ value: g.gid, label: g.name })), [groups]);

  return (
    <div className="vlist" data-testid="voice-list-page" data-socket={status}>
      <Card size="small" title={t('records.title')}>
        <div className="vlist-filters">
          <DatePicker.RangePicker
            showTime
            value={range}
            onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            status={rangeError ? 'error' : undefined}
            presets={[
              { label: t('records.today'), value: [dayjs(startOfDay(Date.now(), tzMs)), dayjs()] },
              { label: t('records.lastHour'), value: [dayjs().subtract(1, 'hour'), dayjs()] },
            ]}
            data-testid="records-range"
          />
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('records.terminal')}
            style={{ width: 220 }}
            value={msId}
            onChange={setMsId}
            options={terminalOptions}
            data-testid="records-terminal"
          />
          <Select allowClear placeholder={t('records.group')} style={{ width: 180 }} value={gid} onChange={setGid} options={groupOptions} data-testid="records-group" />
          <Select
            allowClear
            placeholder={t('records.type')}
            style={{ width: 150 }}
            value={type}
            onChange={setType}
            options={KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            data-testid="records-type"
          />
          <Button type="primary" icon={<SearchOutlined />} onClick={search} disabled={!!rangeError} data-testid="records-search">
            {t('records.search')}
          </Button>
        </div>
        {rangeError && <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t(`range.${rangeError}`)} data-testid="records-range-error" />}
      </Card>
      {q.isError && <Alert type="error" showIcon title={voiceErrorText(t, q.error)} />}
      <Table<VoiceRecord>
        size="small"
        rowKey={(r) => `${r.callid}:${r.btime}:${r.id}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        data-testid="records-table"
        onRow={(r) => ({ 'data-testid': 'record-row', 'data-callid': r.callid, 'data-ms-id': r.msId, 'data-quality': r.quality } as React.HTMLAttributes<HTMLElement>)}
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100, 1000],
          onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }),
        }}
        columns={[
          { key: 'btime', title: t('records.col.time'), render: (_, r) => dayjs(r.btime).format(FMT), width: 170 },
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
    </div>
  );
}
