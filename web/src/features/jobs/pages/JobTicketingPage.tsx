// /job-ticketing and /job-ticketing-child: job tickets with their live states, the map of open tickets, a new
// ticket from the map (click to place it) or from the terminal tree (the picker), the history of each ticket,
// deletion of a ticket or a whole job.
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Card, Input, Popconfirm, Space, Tag, Tooltip } from 'antd';
import { DeleteOutlined, EnvironmentOutlined, HistoryOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { MapView } from '../../../map/MapView';
import { TerminalsLayer } from '../../../map/layers/TerminalsLayer';
import { RemoveButton, useRemove } from '../../../shared/crud/RemoveButton';
import { useLiveStatus } from '../../../shared/socket/live';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { QueryTable } from '../../../shared/table/QueryTable';
import { commaList } from '../../../shared/report/TerminalFilter';
import { ChoicesFilter } from '../../../shared/report/ChoicesFilter';
import { useSettings } from '../../../shared/settings';
import { useBranding } from '../../../shared/branding/store';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { isOpen, jobApi, jobKeys, STATE_COLOR, STATES, type Job, type JobQuery, type Ticket } from '../api';
import { useLiveJobs } from '../useLiveJobs';
import { JobsLayer } from '../components/JobsLayer';
import { HistoryDrawer } from '../components/HistoryDrawer';
import { JobForm, type Draft } from '../components/JobForm';
import '../jobs.css';

const EMPTY: Draft = { job: '', address: '', msIds: [], lat: null, lng: null };

export default function JobTicketingPage() {
  const { t } = useTranslation('jobs');
  const socket = useLiveStatus((s) => s.status);
  const dateTime = useDateTimeFormat();
  const mapType = useSettings((s) => s.mapType);
  const language = useSettings((s) => s.language);
  const mapsKey = useBranding((s) => s.clientConfig.mapsKey);
  const [states, setStates] = useState<number[]>([]);
  const [msIds, setMsIds] = useState<string[]>([]);
  const [keyword, setKeyword] = useState('');
  const [paging, setPaging] = useState({ pageNo: 1, pageSize: 20 });
  const query: JobQuery = useMemo(
    () => ({
      state: commaList(states),
      msId: commaList(msIds),
      keyword: keyword || undefined,
      ...paging,
    }),
    [states, msIds, keyword, paging],
  );
  const { rows, total, loading, refetch } = useLiveJobs(query);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [picking, setPicking] = useState(false);
  const [historyOf, setHistoryOf] = useState<Job | null>(null);
  const [selected, setSelected] = useState<string | undefined>();
  // From the tree: the terminal panel's "Job ticket…" opens this screen with ?msIds= — a new ticket for them.
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const ms = params.get('msIds');
    if (!ms) return;
    setDraft({ ...EMPTY, msIds: ms.split(',').filter(Boolean) });
    setParams({}, { replace: true });
  }, [params, setParams]);

  const openJobs = rows.filter((j) => isOpen(j.status));
  const newAt = (lat: number, lng: number) => {
    setDraft((d) => ({ ...(d ?? EMPTY), lat, lng }));
    setPicking(false);
  };

  return (
    <div className="page-pad job-page" data-testid="job-ticketing-page" data-socket={socket} data-total={total}>
      <Card
        size="small"
        title={t('title')}
        className="job-list"
        extra={
          <Space>
            <Button icon={<ReloadOutlined />} onClick={() => void refetch()} aria-label={t('reload')} />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDraft(draft ?? EMPTY)} data-testid="job-new">
              {t('new')}
            </Button>
          </Space>
        }
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <ChoicesFilter
            values={STATES}
            label={(s) => t(`state.${s}`)}
            minWidth={180}
            placeholder={t('filter.state')}
            value={states}
            onChange={(v) => {
              setStates(v);
              setPaging((p) => ({ ...p, pageNo: 1 }));
            }}
            testId="job-filter-state"
          />
          <TerminalPicker
            multiple
            maxTagCount="responsive"
            style={{ minWidth: 200 }}
            value={msIds}
            onChange={(v) => {
              setMsIds(v);
              setPaging((p) => ({ ...p, pageNo: 1 }));
            }}
            placeholder={t('filter.terminals')}
            testId="job-filter-terminals"
          />
          <Input.Search
            allowClear
            placeholder={t('filter.keyword')}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPaging((p) => ({ ...p, pageNo: 1 }));
            }}
            style={{ width: 200 }}
          />
        </Space>
        <QueryTable<Job>
          query={{ isLoading: loading }}
          rows={rows}
          rowKey="jobId"
          rowClassName={(j) => (j.jobId === selected ? 'job-row-selected' : '')}
          row={(j) => ({ onClick: () => setSelected(j.jobId), 'data-testid': 'job-row', 'data-id': j.jobId, 'data-status': j.status })}
          pagination={{ current: paging.pageNo, pageSize: paging.pageSize, total, showSizeChanger: true, onChange: (pageNo, pageSize) => setPaging({ pageNo, pageSize }) }}
          columns={[
            {
              key: 'job',
              title: t('col.task'),
              render: (_, j) => (
                <div>
                  <div className="job-task">{j.job}</div>
                  {j.address && (
                    <div className="job-muted">
                      <EnvironmentOutlined /> {j.address}
                    </div>
                  )}
                </div>
              ),
            },
            { key: 'status', title: t('col.status'), width: 110, render: (_, j) => <Tag color={STATE_COLOR[j.status]} data-testid="job-status">{t(`state.${j.status}`)}</Tag> },
            { key: 'tickets', title: t('col.assignees'), render: (_, j) => <Space size={[4, 4]} wrap>{j.jobMsList.map((tk) => <TicketTag key={tk.msId} job={j} ticket={tk} />)}</Space> },
            {
              key: 'sent',
              title: t('col.sent'),
              width: 170,
              render: (_, j) => (
                <div>
                  <div>{formatZoned(j.sendTime, dateTime)}</div>
                  <div className="job-muted">{j.creatorName || j.creator}</div>
                </div>
              ),
            },
            {
              key: 'actions',
              width: 90,
              render: (_, j) => (
                <Space>
                  <Tooltip title={t('history.open')}>
                    <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistoryOf(j)} data-testid="job-history-open" />
                  </Tooltip>
                  <RemoveButton ns="jobs" remove={() => jobApi.remove(j.jobId)} invalidate={[jobKeys.list.all]} done={t('deleted')} confirm={t('confirmDelete')} label={t('delete')} testId="job-delete" />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <div className="job-map" data-testid="job-map" data-open={openJobs.length}>
        <MapView provider={mapType} mapsKey={mapsKey} language={language} theme="normal">
          <TerminalsLayer onSelect={() => {}} labels={{ more: (k) => t('map.more', { count: k }), state: (s) => t(`map.terminal.${s}`, { defaultValue: s }) }} />
          <JobsLayer
            jobs={openJobs}
            pick={draft && draft.lat !== null && draft.lng !== null ? { lat: draft.lat, lng: draft.lng } : null}
            onSelect={setSelected}
            onPick={picking || !draft ? newAt : undefined}
          />
        </MapView>
        <div className="job-map-hint">{draft ? (picking ? t('map.pickNow') : t('map.placed')) : t('map.hint')}</div>
      </div>
      <JobForm
        open={!!draft}
        draft={draft ?? EMPTY}
        setDraft={setDraft}
        picking={picking}
        setPicking={setPicking}
        onClose={() => {
          setDraft(null);
          setPicking(false);
        }}
        onSent={(j) => {
          setDraft(null);
          setPicking(false);
          setSelected(j.jobId);
        }}
      />
      <HistoryDrawer job={historyOf} onClose={() => setHistoryOf(null)} />
    </div>
  );
}

/** A ticket in a job's row: its worker and state; withdrawn from here when the job has other tickets. */
function TicketTag({ job: j, ticket: tk }: { job: Job; ticket: Ticket }) {
  const { t } = useTranslation('jobs');
  const remove = useRemove({ ns: 'jobs', remove: () => jobApi.remove(j.jobId, tk.msId), invalidate: [jobKeys.list.all], done: t('deleted') });
  return (
    <Tooltip
      title={
        <div>
          <div>{t(`state.${tk.state}`)}</div>
          {!tk.delivered && <div>{t('notDelivered')}</div>}
          {tk.reason && <div>{t('reason', { reason: tk.reason })}</div>}
          {tk.remark && <div>{t('remark', { remark: tk.remark })}</div>}
        </div>
      }
    >
      <Tag color={STATE_COLOR[tk.state]} data-testid="job-ticket" data-ms={tk.msId} data-state={tk.state} data-delivered={tk.delivered ? 1 : 0}>
        {!tk.delivered && <Badge status="warning" />} {tk.msName || tk.msId} · {t(`state.${tk.state}`)}
        {j.jobMsList.length > 1 && (
          <Popconfirm title={t('confirmDeleteTicket', { name: tk.msName || tk.msId })} onConfirm={remove}>
            <DeleteOutlined className="job-ticket-del" onClick={(e) => e.stopPropagation()} data-testid="job-ticket-delete" />
          </Popconfirm>
        )}
      </Tag>
    </Tooltip>
  );
}
