// /broadcast (spec §2, §6: account type "1"): speakers by organisation (online, what they play, volume, batch
// volume), the music library (upload with progress, preview), tasks and plans, and the real-time player.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  App, Button, Card, Checkbox, Form, Input, InputNumber, Modal, Progress, Select, Space, Switch, Table, Tabs, Tag, Tree, Upload,
} from 'antd';
import {
  CaretRightOutlined, EditOutlined, PauseOutlined, PlusOutlined, StepBackwardOutlined, StepForwardOutlined, StopOutlined, UploadOutlined,
} from '@ant-design/icons';
import { useErrorText } from '../../../shared/errorText';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { QueryTable } from '../../../shared/table/QueryTable';
import { live } from '../../../shared/socket/live';
import { consoleVoice } from '../../../shared/voice/console';
import { useNow } from '../../../shared/utils/useNow';
import { broadcastApi, broadcastKeys, clock, positionAt, taskTrace, zoneName, uploadMusic, type Device, type MusicFile, type Org, type PageEnded, type Task, type TaskInput } from '../api';
import { useBroadcast } from '../useBroadcast';
import { md5 } from '../md5';
import { VolumeSlider } from '../components/VolumeSlider';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatZoned } from '../../../shared/time/zone';

const STATE_COLOR = { 0: 'default', 1: 'processing', 2: 'warning' } as const;

/** Shows a failure as a message: the server's key, the common codes, then broadcast's own (useErrorText). */
function useFail() {
  const errorText = useErrorText('broadcast');
  const { message } = App.useApp();
  return (e: unknown) => void message.error(errorText(e));
}

export default function BroadcastPage() {
  const { t } = useTranslation('broadcast');
  const data = useBroadcast();
  return (
    <div className="page-pad" data-testid="broadcast-page">
      <Card size="small" title={t('title')}>
        <Tabs
          items={[
            { key: 'speakers', label: t('tabs.speakers'), children: <Speakers data={data} /> },
            { key: 'library', label: t('tabs.library'), children: <Library data={data} /> },
            { key: 'tasks', label: t('tabs.tasks'), children: <Tasks data={data} /> },
            { key: 'player', label: t('tabs.player'), children: <Player data={data} /> },
          ]}
        />
      </Card>
    </div>
  );
}

type Data = ReturnType<typeof useBroadcast>;

function orgTree(orgs: Org[], parent = 0): { key: number; title: string; children: ReturnType<typeof orgTree> }[] {
  return orgs.filter((o) => o.parent_id === parent).map((o) => ({ key: o.id, title: `${o.name} (${o.device_count})`, children: orgTree(orgs, o.id) }));
}

function Speakers({ data }: { data: Data }) {
  const { t } = useTranslation('broadcast');
  const dateTime = useDateTimeFormat();
  const fail = useFail();
  const orgList = data.orgs.data?.list;
  const orgs = useMemo(() => orgList ?? [], [orgList]);
  const [org, setOrg] = useState<number>(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [batch, setBatch] = useState(60);
  const [newOrg, setNewOrg] = useState(false);
  const [newDevice, setNewDevice] = useState(false);
  const [editOrg, setEditOrg] = useState<Org | null>(null);
  const [editDevice, setEditDevice] = useState<Device | null>(null);
  const tasks = new Map((data.tasks.data?.list ?? []).map((x) => [x.id, x.name]));
  const files = new Map((data.files.data?.list ?? []).map((x) => [x.id, x.original_name]));
  const inOrg = useMemo(() => {
    if (!org) return null;
    const ids = new Set([org]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const o of orgs) {
        if (!ids.has(o.id) && ids.has(o.parent_id)) {
          ids.add(o.id);
          grew = true;
        }
      }
    }
    return ids;
  }, [org, orgs]);
  const devices = (data.devices.data?.list ?? []).filter((d) => !inOrg || inOrg.has(d.org_id));
  return (
    <div style={{ display: 'flex', gap: 16 }}>
      <div style={{ width: 260 }}>
        <Space style={{ marginBottom: 8 }}>
          <Button size="small" icon={<PlusOutlined />} onClick={() => setNewOrg(true)} data-testid="org-new">{t('org.new')}</Button>
          <Button size="small" onClick={() => setOrg(0)}>{t('org.all')}</Button>
        </Space>
        <Tree<{ key: number; title: string }>
          treeData={orgTree(orgs)}
          defaultExpandAll
          selectedKeys={org ? [org] : []}
          onSelect={(keys) => setOrg(Number(keys[0] ?? 0))}
        />
        {org > 0 && (
          <Space style={{ marginTop: 8 }}>
            <Button size="small" icon={<EditOutlined />} data-testid="org-edit" onClick={() => setEditOrg(orgs.find((o) => o.id === org) ?? null)}>{t('org.edit')}</Button>
            <RemoveButton ns="broadcast" confirm={t('org.confirmDelete')} label={t('org.delete')} iconOnly={false}
              remove={() => broadcastApi.deleteOrg(org)} invalidate={[broadcastKeys.orgs.all]} onDone={() => setOrg(0)} />
          </Space>
        )}
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Space wrap style={{ marginBottom: 8 }}>
          <Button size="small" icon={<PlusOutlined />} disabled={!orgs.length} onClick={() => setNewDevice(true)}>{t('device.new')}</Button>
          <span>{t('device.batch', { count: selected.length })}</span>
          <VolumeSlider value={batch} onChange={setBatch} testId="batch-volume-slider" />
          <Button size="small" disabled={!selected.length && !org} data-testid="batch-volume"
            onClick={() => broadcastApi.batchVolume(batch, selected, selected.length ? undefined : org).then(() => data.refresh(broadcastKeys.devices.all), fail)}>
            {t('device.setVolume')}
          </Button>
          <PageButton devices={selected} org={selected.length ? 0 : org} />
        </Space>
        <Table<Device>
          size="small"
          rowKey="id"
          loading={data.devices.isLoading}
          dataSource={devices}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k.map(Number)) }}
          onRow={(d) => ({ 'data-testid': 'speaker-row', 'data-code': d.code, 'data-online': d.online, 'data-state': d.reported?.state ?? 'none', 'data-stale': d.reported?.stale ? '1' : '0' }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'name', title: t('device.name'), render: (_, d) => `${d.name} (${d.code})` },
            { key: 'online', title: t('device.online'), render: (_, d) => <Tag color={d.online ? 'green' : 'default'}>{t(d.online ? 'device.on' : 'device.off')}</Tag> },
            {
              key: 'playing', title: t('device.playing'), render: (_, d) => {
                const p = d.playing;
                if (!p) return t('device.nothing');
                if (p.task_kind === 3) return <span data-testid="speaker-playing">{t('device.live')}</span>;
                const what = `${tasks.get(p.task_id) ?? t('player.title')} · ${files.get(p.file_id) ?? ''}`;
                const r = d.reported;
                const heard = r?.state === 'playing' && !r.stale ? ` · ${clock(r.position_ms)} · ${t('device.level', { level: Math.round(r.level * 100) })}` : '';
                return (
                  <span data-testid="speaker-playing">
                    {p.paused ? t('device.paused', { what }) : p.gap ? t('device.gap', { what }) : what}{heard}
                    {r?.stale && <Tag color="warning" style={{ marginLeft: 6 }} title={t('device.lastReport', { at: formatZoned(r.at, dateTime) })}>{t('device.stale')}</Tag>}
                  </span>
                );
              },
            },
            {
              key: 'volume', title: t('device.volume'), width: 220, render: (_, d) => (
                <VolumeSlider value={d.ao_volume} width={140} testId="speaker-volume"
                  onCommit={(v) => broadcastApi.volume(d.id, v).then(() => data.refresh(broadcastKeys.devices.all), fail)} />
              ),
            },
            {
              key: 'actions', title: '', width: 90, render: (_, d) => (
                <Space size={4}>
                  <Button size="small" icon={<EditOutlined />} aria-label={t('device.edit')} title={t('device.edit')} data-testid="speaker-edit" onClick={() => setEditDevice(d)} />
                  <RemoveButton ns="broadcast" confirm={t('device.confirmDelete')} label={t('device.delete')} remove={() => broadcastApi.deleteDevice(d.id)} invalidate={[broadcastKeys.devices.all]} />
                </Space>
              ),
            },
          ]}
        />
      </div>
      <CodeDialog open={newOrg} title={t('org.new')} withPassword parents={orgs} parent={org}
        onClose={() => setNewOrg(false)}
        onSave={(v) => broadcastApi.createOrg({ parent_id: v.parent ?? 0, name: v.name, code: v.code, call_number: v.callNumber ?? '', password: v.password ? md5(v.password) : undefined })
          .then(() => (setNewOrg(false), data.refresh(broadcastKeys.orgs.all)), fail)} />
      <CodeDialog open={newDevice} title={t('device.new')} parents={orgs} parent={org || orgs[0]?.id} needParent
        onClose={() => setNewDevice(false)}
        onSave={(v) => broadcastApi.createDevice({ org_id: v.parent ?? 0, name: v.name, code: v.code })
          .then(() => (setNewDevice(false), data.refresh(broadcastKeys.devices.all), data.refresh(broadcastKeys.orgs.all)), fail)} />
      {editOrg && (
        <CodeDialog open title={t('org.edit')} withPassword keepPassword parents={orgs.filter((o) => o.id !== editOrg.id)}
          initial={{ parent: editOrg.parent_id, name: editOrg.name, code: editOrg.code, callNumber: editOrg.call_number }}
          onClose={() => setEditOrg(null)}
          onSave={(v) => broadcastApi.updateOrg(editOrg.id, { parent_id: v.parent || undefined, name: v.name, code: v.code, call_number: v.callNumber ?? '', password: v.password ? md5(v.password) : undefined })
            .then(() => (setEditOrg(null), data.refresh(broadcastKeys.orgs.all)), fail)} />
      )}
      {editDevice && (
        <CodeDialog open title={t('device.edit')} parents={orgs} needParent
          initial={{ parent: editDevice.org_id, name: editDevice.name, code: editDevice.code }}
          onClose={() => setEditDevice(null)}
          onSave={(v) => broadcastApi.updateDevice(editDevice.id, { org_id: v.parent ?? editDevice.org_id, name: v.name, code: v.code })
            .then(() => (setEditDevice(null), data.refresh(broadcastKeys.devices.all), data.refresh(broadcastKeys.orgs.all)), fail)} />
      )}
    </div>
  );
}

/** Hold to page: the selected speakers (or the selected organisation) hear the console's microphone live. A page
 * the server ends because it stopped carrying the microphone (broadcast.pageEnded) is shown ended at once: the
 * event is this button's own (its page and the microphone), not list data, so it is heard here and not through
 * useLiveQueries — the speakers' lists follow broadcast.devices. */
function PageButton({ devices, org }: { devices: number[]; org: number }) {
  const { t } = useTranslation('broadcast');
  const fail = useFail();
  const { message } = App.useApp();
  const [on, setOn] = useState(false);
  const [ended, setEnded] = useState<PageEnded['reason'] | null>(null);
  const page = useRef(0); // the live page's task id (negative), 0 when none
  useEffect(() => live().on<PageEnded>('broadcast.pageEnded', (e) => {
    if (!page.current || e.data.task_id !== page.current) return;
    page.current = 0;
    setOn(false);
    setEnded(e.data.reason);
    void consoleVoice().setPaging(false);
    message.warning(t(`paging.ended.${e.data.reason}`));
  }), [message, t]);
  const start = async () => {
    if (on) return;
    setOn(true);
    setEnded(null);
    try {
      const a = await broadcastApi.pageStart(devices, org ? [org] : []);
      page.current = a.task.id;
      if (a.lost.length) message.warning(t('tasks.lost', { count: a.lost.length, reason: t(`tasks.reason.${a.lost[0].reason}`) }));
      await consoleVoice().setPaging(true);
    } catch (e) {
      setOn(false);
      page.current = 0;
      await broadcastApi.pageStop().catch(() => undefined);
      fail(e);
    }
  };
  const stop = () => {
    if (!on) return;
    setOn(false);
    page.current = 0;
    void consoleVoice().setPaging(false);
    void broadcastApi.pageStop().catch(() => undefined);
  };
  return (
    <Space size={4}>
      <Button size="small" type={on ? 'primary' : 'default'} danger={on} disabled={!devices.length && !org} data-testid="page-button" data-paging={on ? '1' : '0'}
        onPointerDown={() => void start()} onPointerUp={stop} onPointerLeave={stop}>
        {on ? t('paging.live') : t('paging.hold')}
      </Button>
      {ended && <Tag color="warning" data-testid="page-ended" data-reason={ended}>{t('paging.endedTag')}</Tag>}
    </Space>
  );
}

interface CodeValues { name: string; code: string; callNumber?: string; password?: string; parent?: number }

/** A new organisation or speaker, or an edit of one: `initial` fills the form with its current values, and an edit
 * of an organisation (`keepPassword`) changes its speakers' password only when one is typed. */
function CodeDialog(props: {
  open: boolean; title: string; parents: Org[]; parent?: number; initial?: CodeValues; withPassword?: boolean; keepPassword?: boolean; needParent?: boolean;
  onClose: () => void; onSave: (v: CodeValues) => void;
}) {
  const { t } = useTranslation('broadcast');
  const [form] = Form.useForm<CodeValues>();
  const initial = props.initial ? { ...props.initial, parent: props.initial.parent || undefined } : { parent: props.parent || undefined };
  return (
    <Modal open={props.open} title={props.title} onCancel={props.onClose} onOk={() => form.validateFields().then(props.onSave)} destroyOnHidden
      okButtonProps={{ 'data-testid': 'code-dialog-ok' } as React.ComponentProps<typeof Button>}>
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item name="parent" label={t('org.parent')} rules={props.needParent ? [{ required: true }] : []}>
          <Select allowClear={!props.needParent} options={props.parents.map((o) => ({ value: o.id, label: o.name }))} />
        </Form.Item>
        <Form.Item name="name" label={t('form.name')} rules={[{ required: true, max: 64 }]}><Input data-testid="code-dialog-name" /></Form.Item>
        <Form.Item name="code" label={t('form.code')} rules={[{ required: true, max: 32, pattern: /^[A-Za-z0-9._-]+$/ }]}><Input /></Form.Item>
        {props.withPassword && (
          <>
            <Form.Item name="callNumber" label={t('form.callNumber')} rules={[{ required: true, max: 32, pattern: /^[A-Za-z0-9._-]+$/ }]}><Input /></Form.Item>
            <Form.Item name="password" label={t('form.speakerPassword')} extra={`${t('form.speakerPasswordHint')}${props.keepPassword ? ` ${t('form.passwordKeep')}` : ''}`}><Input.Password /></Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

function Library({ data }: { data: Data }) {
  const { t } = useTranslation('broadcast');
  const fail = useFail();
  const [progress, setProgress] = useState<number | null>(null);
  return (
    <>
      <Space style={{ marginBottom: 8 }}>
        <Upload accept=".mp3,.wav,.ogg,.flac,audio/*" showUploadList={false}
          customRequest={({ file }) => {
            setProgress(0);
            uploadMusic(file as File, 0, setProgress)
              .then(() => data.refresh(broadcastKeys.files.all), fail)
              .finally(() => setProgress(null));
          }}>
          <Button icon={<UploadOutlined />} data-testid="music-upload">{t('library.upload')}</Button>
        </Upload>
        {progress !== null && <Progress percent={progress} size="small" style={{ width: 200 }} data-testid="music-progress" />}
        <span>{t('library.formats')}</span>
      </Space>
      <QueryTable<MusicFile>
        query={data.files}
        pagination={{ pageSize: 100, hideOnSinglePage: true }}
        row={(f) => ({ 'data-testid': 'music-row', 'data-name': f.original_name })}
        columns={[
          { key: 'name', title: t('library.name'), dataIndex: 'original_name' },
          { key: 'length', title: t('library.length'), render: (_, f) => clock(f.length) },
          { key: 'size', title: t('library.size'), render: (_, f) => t('library.kb', { n: Math.ceil(f.size / 1024) }) },
          { key: 'preview', title: t('library.preview'), render: (_, f) => <audio controls preload="none" src={f.url} style={{ height: 28 }} /> },
          {
            key: 'actions', title: '', width: 50, render: (_, f) => (
              <RemoveButton ns="broadcast" confirm={t('library.confirmDelete')} label={t('library.delete')} remove={() => broadcastApi.deleteFile(f.id)} invalidate={[broadcastKeys.files.all]} />
            ),
          },
        ]}
      />
    </>
  );
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

function Tasks({ data }: { data: Data }) {
  const { t } = useTranslation('broadcast');
  const dateTime = useDateTimeFormat();
  const fail = useFail();
  const { message } = App.useApp();
  const [edit, setEdit] = useState<Task | 'new' | null>(null);
  const [planName, setPlanName] = useState('');
  const plans = data.plans.data?.list ?? [];
  const files = new Map((data.files.data?.list ?? []).map((x) => [x.id, x.original_name]));
  const act = (task: Task, verb: 'start' | 'stop' | 'pause' | 'resume') =>
    broadcastApi.act(task.id, verb).then((a) => {
      if (a.lost.length) message.warning(t('tasks.lost', { count: a.lost.length, reason: t(`tasks.reason.${a.lost[0].reason}`) }));
      data.refresh(broadcastKeys.tasks.all);
    }, fail);
  return (
    <>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEdit('new')} data-testid="task-new">{t('tasks.new')}</Button>
        <span>{t('plans.title')}</span>
        {plans.map((p) => (
          <Tag key={p.id} color={p.active ? 'green' : 'default'} style={{ cursor: 'pointer' }}
            onClick={() => broadcastApi.planAct(p.id, p.active ? 'stop' : 'start').then(() => data.refresh(broadcastKeys.plans.all), fail)}>
            {p.name} · {t(p.active ? 'plans.active' : 'plans.inactive')}
          </Tag>
        ))}
        <Input size="small" style={{ width: 140 }} value={planName} onChange={(e) => setPlanName(e.target.value)} placeholder={t('plans.name')} />
        <Button size="small" disabled={!planName.trim()} onClick={() => broadcastApi.createPlan(planName.trim()).then(() => (setPlanName(''), data.refresh(broadcastKeys.plans.all)), fail)}>
          {t('plans.new')}
        </Button>
      </Space>
      <QueryTable<Task>
        query={data.tasks}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        row={(x) => ({ 'data-testid': 'task-row', 'data-state': x.state, 'data-name': x.name })}
        columns={[
          { key: 'name', title: t('form.name'), dataIndex: 'name' },
          { key: 'when', title: t('tasks.zoned', { what: t('tasks.when'), zone: zoneName() }), render: (_, x) => x.type === 1 ? `${x.start_time ?? ''} ${x.weekdays.length ? x.weekdays.map((d) => t(`weekday.${d}`)).join(' ') : t('tasks.daily')}` : t('tasks.manual') },
          { key: 'plan', title: t('plans.title'), render: (_, x) => plans.find((p) => p.id === x.plan_id)?.name ?? '—' },
          { key: 'state', title: t('tasks.state'), render: (_, x) => <Tag color={STATE_COLOR[x.state]}>{t(`tasks.states.${x.state}`)}</Tag> },
          { key: 'now', title: t('tasks.now'), render: (_, x) => x.state ? `${files.get(x.file_id ?? 0) ?? ''} ${clock(x.position_ms)} · ${t('tasks.holding', { count: x.holding.length })}` : '' },
          {
            key: 'lastRun', title: t('tasks.lastRun'), render: (_, x) => {
              const { lastRun } = taskTrace(x, (ms) => formatZoned(ms, dateTime));
              return lastRun ? <span data-testid="task-last-run" data-end={lastRun.end}>{`${lastRun.at} · ${t(`tasks.ends.${lastRun.end}`)}`}</span> : t('tasks.never');
            },
          },
          {
            key: 'missed', title: t('tasks.missed'), render: (_, x) => {
              const { missed } = taskTrace(x, (ms) => formatZoned(ms, dateTime));
              return missed ? <span data-testid="task-missed">{missed.last ? `${missed.count} · ${t('tasks.lastMissed', { at: missed.last })}` : missed.count}</span> : '';
            },
          },
          {
            key: 'actions', title: '', render: (_, x) => (
              <Space size={4}>
                {x.state === 0 && <Button size="small" icon={<CaretRightOutlined />} onClick={() => act(x, 'start')} aria-label={t('tasks.start')} data-testid="task-start" />}
                {x.state === 1 && <Button size="small" icon={<PauseOutlined />} onClick={() => act(x, 'pause')} aria-label={t('tasks.pause')} />}
                {x.state === 2 && <Button size="small" icon={<CaretRightOutlined />} onClick={() => act(x, 'resume')} aria-label={t('tasks.resume')} />}
                {x.state !== 0 && <Button size="small" icon={<StopOutlined />} onClick={() => act(x, 'stop')} aria-label={t('tasks.stop')} />}
                {x.state === 0 && <Button size="small" onClick={() => setEdit(x)}>{t('tasks.edit')}</Button>}
                {x.state === 0 && (
                  <RemoveButton ns="broadcast" confirm={t('tasks.confirmDelete')} label={t('tasks.delete')} remove={() => broadcastApi.deleteTask(x.id)} invalidate={[broadcastKeys.tasks.all]} />
                )}
              </Space>
            ),
          },
        ]}
      />
      <Schedule tasks={data.tasks.data?.list ?? []} plans={plans} />
      {edit && <TaskDialog data={data} task={edit === 'new' ? null : edit} onClose={() => setEdit(null)} />}
    </>
  );
}

/** The week of timed tasks: each day's starts in time order; a task of an inactive plan is shown faded. */
function Schedule({ tasks, plans }: { tasks: Task[]; plans: { id: number; active: 0 | 1 }[] }) {
  const { t } = useTranslation('broadcast');
  const timed = tasks.filter((x) => x.type === 1 && x.start_time).sort((a, b) => (a.start_time ?? '').localeCompare(b.start_time ?? ''));
  const live = (x: Task) => x.plan_id === 0 || plans.some((p) => p.id === x.plan_id && p.active === 1);
  return (
    <Card size="small" title={t('tasks.zoned', { what: t('tasks.schedule'), zone: zoneName() })} style={{ marginTop: 12 }} data-testid="schedule">
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 8 }}>
        {WEEKDAYS.map((d) => (
          <div key={d}>
            <strong>{t(`weekday.${d}`)}</strong>
            {timed.filter((x) => x.weekdays.length === 0 || x.weekdays.includes(d)).map((x) => (
              <div key={x.id} style={{ opacity: live(x) ? 1 : 0.45 }}>
                <Tag color={x.state ? 'processing' : 'default'}>{x.start_time?.slice(0, 5)}</Tag> {x.name}
              </div>
            ))}
          </div>
        ))}
      </div>
    </Card>
  );
}

function TaskDialog({ data, task, onClose }: { data: Data; task: Task | null; onClose: () => void }) {
  const { t } = useTranslation('broadcast');
  const fail = useFail();
  const [form] = Form.useForm<TaskInput>();
  const type = Form.useWatch('type', form);
  const durationType = Form.useWatch('duration_type', form);
  const init: Partial<TaskInput> = task
    ? { ...task, type: task.type === 1 ? 1 : 0 }
    : { type: 0, plan_id: 0, offline: 0, loop: 1, volume: 60, duration_type: 1, interval_time: 0, file_ids: [], device_ids: [], weekdays: [] };
  const save = () =>
    form.validateFields().then((v) => {
      const input: TaskInput = { ...v, start_time: v.type === 1 ? v.start_time : undefined, plan_id: v.plan_id ?? 0, offline: v.offline ? 1 : 0 };
      return (task ? broadcastApi.updateTask(task.id, input) : broadcastApi.createTask(input)).then(() => (data.refresh(broadcastKeys.tasks.all), onClose()), fail);
    });
  return (
    <Modal open title={task ? t('tasks.edit') : t('tasks.new')} onCancel={onClose} onOk={() => void save()} width={640}>
      <Form form={form} layout="vertical" initialValues={init}>
        <Form.Item name="name" label={t('form.name')} rules={[{ required: true, max: 64 }]}><Input data-testid="task-name" /></Form.Item>
        <Form.Item name="type" label={t('tasks.kind')}>
          <Select options={[{ value: 0, label: t('tasks.manual') }, { value: 1, label: t('tasks.timed') }]} />
        </Form.Item>
        {type === 1 && (
          <Space wrap>
            <Form.Item name="start_time" label={t('tasks.zoned', { what: t('tasks.startTime'), zone: zoneName() })} rules={[{ required: true, pattern: /^\d{2}:\d{2}(:\d{2})?$/ }]}><Input placeholder="08:00" /></Form.Item>
            <Form.Item name="weekdays" label={t('tasks.weekdays')}>
              <Checkbox.Group options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))} />
            </Form.Item>
            <Form.Item name="plan_id" label={t('plans.title')}>
              <Select style={{ width: 160 }} options={[{ value: 0, label: '—' }, ...(data.plans.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))]} />
            </Form.Item>
          </Space>
        )}
        <Form.Item name="file_ids" label={t('tasks.files')} rules={[{ required: true }]}>
          <Select mode="multiple" data-testid="task-files" options={(data.files.data?.list ?? []).map((f) => ({ value: f.id, label: `${f.original_name} (${clock(f.length)})` }))} />
        </Form.Item>
        <Form.Item name="device_ids" label={t('tasks.devices')} rules={[{ required: true }]}>
          <Select mode="multiple" data-testid="task-devices" options={(data.devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }))} />
        </Form.Item>
        <Space wrap>
          <Form.Item name="volume" label={t('device.volume')}><InputNumber min={0} max={100} /></Form.Item>
          <Form.Item name="duration_type" label={t('tasks.durationType')}>
            <Select style={{ width: 180 }} options={[1, 2, 3].map((d) => ({ value: d, label: t(`tasks.durationTypes.${d}`) }))} />
          </Form.Item>
          {durationType === 1 && <Form.Item name="loop" label={t('tasks.loop')}><InputNumber min={1} max={10000} /></Form.Item>}
          {durationType === 2 && <Form.Item name="duration" label={t('tasks.duration')} rules={[{ required: true }]}><InputNumber min={1} max={86400} /></Form.Item>}
          <Form.Item name="interval_time" label={t('tasks.interval')}><InputNumber min={0} max={86400} /></Form.Item>
          <Form.Item name="offline" label={t('tasks.offline')} valuePropName="checked"><Switch /></Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

function Player({ data }: { data: Data }) {
  const { t } = useTranslation('broadcast');
  const fail = useFail();
  const rt = data.realTime.data;
  const [fileIds, setFileIds] = useState<number[] | null>(null);
  const [deviceIds, setDeviceIds] = useState<number[] | null>(null);
  const [volume, setVolume] = useState<number | null>(null);
  const files = data.files.data?.list ?? [];
  const names = new Map(files.map((x) => [x.id, x.original_name]));
  const after = () => data.refresh(broadcastKeys.realTime.all);
  const verb = (v: 'stop' | 'pause' | 'next' | 'prev') => broadcastApi.realTimeVerb(v).then(after, fail);
  const now = useNow(1000, rt?.state === 1);
  if (!rt) return null;
  const playing = rt.state !== 0;
  const position = positionAt(rt, data.realTime.dataUpdatedAt, now, files.find((f) => f.id === rt.file_id)?.length);
  return (
    <div data-testid="player" data-state={rt.state}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Select mode="multiple" style={{ width: '100%' }} disabled={playing} placeholder={t('tasks.files')} data-testid="player-files"
          value={fileIds ?? rt.file_ids} onChange={setFileIds} options={files.map((f) => ({ value: f.id, label: f.original_name }))} />
        <Select mode="multiple" style={{ width: '100%' }} disabled={playing} placeholder={t('tasks.devices')} data-testid="player-devices"
          value={deviceIds ?? rt.device_ids} onChange={setDeviceIds} options={(data.devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }))} />
        <Space>
          <span>{t('device.volume')}</span>
          <VolumeSlider width={200} disabled={playing} value={volume ?? rt.volume} onChange={setVolume} testId="player-volume" />
          <Button disabled={playing} data-testid="player-save"
            onClick={() => broadcastApi.setRealTime({ file_ids: fileIds ?? rt.file_ids, device_ids: deviceIds ?? rt.device_ids, volume: volume ?? rt.volume }).then(after, fail)}>
            {t('player.save')}
          </Button>
        </Space>
        <Space>
          <Button icon={<StepBackwardOutlined />} onClick={() => verb('prev')} aria-label={t('player.prev')} />
          {rt.state === 1
            ? <Button icon={<PauseOutlined />} onClick={() => verb('pause')} aria-label={t('tasks.pause')} />
            : <Button type="primary" icon={<CaretRightOutlined />} onClick={() => broadcastApi.realTimeStart().then(after, fail)} aria-label={t('tasks.start')} data-testid="player-start" />}
          <Button icon={<StepForwardOutlined />} onClick={() => verb('next')} aria-label={t('player.next')} />
          <Button icon={<StopOutlined />} disabled={!playing} onClick={() => verb('stop')} aria-label={t('tasks.stop')} />
          <Tag color={STATE_COLOR[rt.state]}>{t(`tasks.states.${rt.state}`)}</Tag>
          {playing && (
            <span data-testid="player-now" data-file={rt.file_id}>
              {names.get(rt.file_id ?? 0) ?? ''} {clock(position)} · {t('tasks.holding', { count: rt.holding.length })}
            </span>
          )}
        </Space>
        <Space wrap>
          {(rt.file_ids ?? []).map((id) => (
            <Tag key={id} color={id === rt.choice_file_id ? 'blue' : 'default'} style={{ cursor: 'pointer' }} onClick={() => broadcastApi.choose(id).then(after, fail)}>
              {names.get(id) ?? id}
            </Tag>
          ))}
        </Space>
      </Space>
    </div>
  );
}
