// Geofences (spec §2 map sub-tabs): 1 the list (assign and remove terminals, edit, delete), 2 create (polygon,
// circle or rectangle; in or out; name required, spec §5), 3 alarm records (respond, cancel = log 127).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Modal, Radio, Select, Space, Tabs, Tag } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import type { Feature, Geometry } from 'geojson';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { useFail } from '../useFail';
import { useSession } from '../../../shared/session';
import { useDateTimeFormat } from '../../../shared/branding/store';
import type { DrawMode } from '../../../map/layers/DrawLayer';
import { alarmsQuery, fenceTerminalsQuery, geoApi, geoKeys, type Fence, type FenceAlarm, type FencePlacement, type FenceShape, type FenceType } from '../../../shared/geo/api';
import { checkRange, MONTH_DAYS, RANGE_CODES } from '../../../shared/time/range';
import { fenceGeometry } from '../fenceGeometry';
import { useMapLive } from '../../../shared/geo/live';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { EditDeleteLinks } from './RowActions';
import { FencePlacementDialog, hasPlacement } from './FencePlacementDialog';

export const FENCE_TABS = { list: '1', create: '2', alarms: '3' } as const;
export const FENCE_NAME_MAX = 64;

export interface DrawRequest {
  mode: DrawMode;
  onFinish: (f: Feature<Geometry>) => void;
}

interface Props {
  fences: Fence[];
  selected?: string;
  onSelect: (fenceid?: string) => void;
  requestDraw: (r: DrawRequest | null) => void;
  tab: string;
  onTab: (tab: string) => void;
}

export function GeofencePanel({ fences, selected, onSelect, requestDraw, tab, onTab }: Props) {
  const { t } = useTranslation('map');
  // Where a new or re-assigned fence's terminals are: shown when some are inside it or already break its rule.
  const [placement, setPlacement] = useState<FencePlacement>();
  const placed = (p: FencePlacement) => hasPlacement(p) && setPlacement(p);
  return (
    <>
      <Tabs
        size="small"
        activeKey={tab}
        onChange={onTab}
        data-testid="fence-tabs"
        items={[
          { key: FENCE_TABS.list, label: t('fence.tabList'), children: <FenceList fences={fences} selected={selected} onSelect={onSelect} onPlaced={placed} /> },
          {
            key: FENCE_TABS.create,
            label: t('fence.tabCreate'),
            children: <FenceCreate requestDraw={requestDraw} onCreated={(f) => (onSelect(f.fenceid), onTab(FENCE_TABS.list), placed(f))} />,
          },
          { key: FENCE_TABS.alarms, label: t('fence.tabAlarms'), children: <AlarmRecords fences={fences} /> },
        ]}
      />
      {placement && <FencePlacementDialog placement={placement} onClose={() => setPlacement(undefined)} />}
    </>
  );
}

function FenceList({ fences, selected, onSelect, onPlaced }: { fences: Fence[]; selected?: string; onSelect: (id?: string) => void; onPlaced: (p: FencePlacement) => void }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const fail = useFail();
  const dateTime = useDateTimeFormat();
  const [assign, setAssign] = useState<Fence>();
  const [edit, setEdit] = useState<Fence>();
  const refresh = () => qc.invalidateQueries({ queryKey: geoKeys.fences() });
  const del = async (f: Fence) => {
    try {
      await geoApi.deleteFences([f.fenceid]);
      message.success(t('done.deleted'));
      if (selected === f.fenceid) onSelect(undefined);
      await refresh();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <>
      <DataTable<Fence>
        rowKey="fenceid"
        dataSource={fences}
        pagination={{ pageSize: 8, size: 'small' }}
        data-testid="fence-list"
        rowClassName={(f) => (f.fenceid === selected ? 'map-row-selected' : '')}
        onRow={(f) => ({ onClick: () => onSelect(f.fenceid), 'data-fenceid': f.fenceid } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          { key: 'name', title: t('fence.name'), dataIndex: 'name', ellipsis: true, width: 160 },
          { key: 'type', title: t('fence.type'), render: (_, f) => <Tag color={f.type === 'in' ? 'green' : 'red'}>{t(`fence.types.${f.type}`)}</Tag>, width: 90 },
          { key: 'shape', title: t('fence.shape'), render: (_, f) => t(`fence.shapes.${f.shape}`), width: 90, ellipsis: true },
          { key: 'terms', title: t('fence.terminals'), render: (_, f) => f.terminals.length, width: 100, ellipsis: true },
          { key: 'creator', title: t('fence.creator'), render: (_, f) => `${f.creator} · ${dayjs(f.time).format(dateTime)}`, ellipsis: true, width: 200 },
          {
            key: 'actions',
            title: '',
            width: 150,
            render: (_, f) => (
              <Space size={4} onClick={(e) => e.stopPropagation()}>
                <Button size="small" type="link" onClick={() => setAssign(f)} data-testid="fence-assign">
                  {t('fence.assign')}
                </Button>
                <EditDeleteLinks onEdit={() => setEdit(f)} confirm={t('fence.confirmDelete', { name: f.name })} onDelete={() => del(f)} />
              </Space>
            ),
          },
        ]}
      />
      {assign && <AssignDialog fence={assign} onClose={() => setAssign(undefined)} onSaved={refresh} onPlaced={onPlaced} />}
      {edit && <EditDialog fence={edit} onClose={() => setEdit(undefined)} onSaved={refresh} />}
    </>
  );
}

function AssignDialog({ fence, onClose, onSaved, onPlaced }: { fence: Fence; onClose: () => void; onSaved: () => void; onPlaced: (p: FencePlacement) => void }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const fail = useFail();
  const q = useQuery(fenceTerminalsQuery(fence.fenceid));
  const [value, setValue] = useState<string[]>(fence.terminals);
  useEffect(() => {
    if (q.data) setValue(q.data.map((x) => x.msId));
  }, [q.data]);
  const save = async () => {
    const before = new Set(q.data?.map((x) => x.msId) ?? fence.terminals);
    const after = new Set(value);
    const add = [...after].filter((x) => !before.has(x));
    const remove = [...before].filter((x) => !after.has(x));
    try {
      const placed = add.length || remove.length ? await geoApi.setFenceTerminals(fence.fenceid, { add, remove }) : undefined;
      message.success(t('done.saved'));
      onSaved();
      onClose();
      if (placed) onPlaced(placed);
    } catch (e) {
      fail(e);
    }
  };
  return (
    <Modal open title={t('fence.assignTitle', { name: fence.name })} onCancel={onClose} onOk={save} okText={t('save')} cancelText={t('cancel')} destroyOnHidden>
      <TerminalPicker multiple value={value} onChange={setValue} style={{ width: '100%' }} testId="fence-assign-picker" placeholder={t('fence.pickTerminals')} />
    </Modal>
  );
}

function EditDialog({ fence, onClose, onSaved }: { fence: Fence; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('map');
  const fail = useFail();
  const [form] = Form.useForm<{ name: string; type: FenceType }>();
  const save = async () => {
    const v = await form.validateFields();
    try {
      await geoApi.editFence(fence.fenceid, { name: v.name.trim(), type: v.type });
      onSaved();
      onClose();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <Modal open title={t('fence.editTitle')} onCancel={onClose} onOk={save} okText={t('save')} cancelText={t('cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ name: fence.name, type: fence.type }}>
        <NameAndType />
      </Form>
    </Modal>
  );
}

function NameAndType() {
  const { t } = useTranslation('map');
  return (
    <>
      <Form.Item
        name="name"
        label={t('fence.name')}
        rules={[
          { required: true, whitespace: true, message: t('fence.nameRequired') },
          { max: FENCE_NAME_MAX, message: t('fence.nameTooLong', { max: FENCE_NAME_MAX }) },
        ]}
      >
        <Input maxLength={FENCE_NAME_MAX + 10} data-testid="fence-name" />
      </Form.Item>
      <Form.Item name="type" label={t('fence.type')} rules={[{ required: true }]}>
        <Radio.Group
          optionType="button"
          options={(['in', 'out'] as const).map((x) => ({ value: x, label: t(`fence.types.${x}`) }))}
          data-testid="fence-type"
        />
      </Form.Item>
    </>
  );
}

function FenceCreate({ requestDraw, onCreated }: { requestDraw: (r: DrawRequest | null) => void; onCreated: (f: FencePlacement) => void }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const fail = useFail();
  const [form] = Form.useForm<{ name: string; type: FenceType; shape: FenceShape; msIds: string[] }>();
  const [drawn, setDrawn] = useState<ReturnType<typeof fenceGeometry>>(null);
  const [drawing, setDrawing] = useState(false);
  const [saving, setSaving] = useState(false);
  const shape = Form.useWatch('shape', form) ?? 'polygon';
  useEffect(() => () => requestDraw(null), [requestDraw]);
  const draw = () => {
    setDrawn(null);
    setDrawing(true);
    requestDraw({
      mode: shape,
      onFinish: (f) => {
        setDrawn(fenceGeometry(shape, f));
        setDrawing(false);
      },
    });
  };
  const save = async () => {
    const v = await form.validateFields();
    if (!drawn) return message.warning(t('fence.drawFirst'));
    setSaving(true);
    try {
      const f = await geoApi.createFence({ name: v.name.trim(), type: v.type, shape: v.shape, ...drawn, msIds: v.msIds?.length ? v.msIds : undefined });
      message.success(t('done.created'));
      await qc.invalidateQueries({ queryKey: geoKeys.fences() });
      form.resetFields();
      setDrawn(null);
      requestDraw(null);
      onCreated(f);
    } catch (e) {
      fail(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} layout="vertical" size="small" initialValues={{ type: 'in', shape: 'polygon', msIds: [] }} data-testid="fence-create">
      <NameAndType />
      <Form.Item name="shape" label={t('fence.shape')}>
        <Radio.Group
          optionType="button"
          onChange={() => (setDrawn(null), requestDraw(null), setDrawing(false))}
          options={(['polygon', 'circle', 'rectangle'] as const).map((x) => ({ value: x, label: t(`fence.shapes.${x}`) }))}
          data-testid="fence-shape"
        />
      </Form.Item>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button onClick={draw} type={drawing ? 'primary' : 'default'} data-testid="fence-draw">
          {drawing ? t('fence.drawing') : drawn ? t('fence.redraw') : t('fence.draw')}
        </Button>
        {drawn && (
          <Tag color="blue" data-testid="fence-drawn">
            {drawn.radius ? t('fence.circleDrawn', { radius: drawn.radius }) : t('fence.shapeDrawn')}
          </Tag>
        )}
      </Space>
      {drawing && <div className="map-hint">{t(`fence.hint.${shape}`)}</div>}
      <Form.Item name="msIds" label={t('fence.terminals')}>
        <TerminalPicker multiple value={form.getFieldValue('msIds')} onChange={(v: string[]) => form.setFieldValue('msIds', v)} style={{ width: '100%' }} placeholder={t('fence.pickTerminals')} testId="fence-terminals" />
      </Form.Item>
      <Button type="primary" block onClick={save} loading={saving} data-testid="fence-save">
        {t('save')}
      </Button>
    </Form>
  );
}

function AlarmRecords({ fences }: { fences: Fence[] }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const fail = useFail();
  const qc = useQueryClient();
  const tz = useSession((s) => s.session?.timeZoneMs ?? 0);
  const dateTime = useDateTimeFormat();
  const [fenceid, setFenceid] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState({ pageNo: 1, pageSize: 10 });
  const [rangeError, setRangeError] = useState<string>();
  const liveCount = useMapLive((s) => s.fenceAlarms.length);
  const params = useMemo(
    () => ({ ...page, fenceid, status, sTime: range?.[0].valueOf(), eTime: range?.[1].valueOf() }),
    [page, fenceid, status, range],
  );
  const q = useQuery({ ...alarmsQuery(params), enabled: !rangeError });
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: [...geoKeys.all, 'alarms'] });
  }, [liveCount, qc]);
  const onRange = (v: [Dayjs, Dayjs] | null) => {
    const problem = v ? checkRange(v[0].valueOf(), v[1].valueOf(), MONTH_DAYS, tz) : null;
    setRangeError(problem ? t(`range.${problem}`, { days: MONTH_DAYS, code: RANGE_CODES[problem] }) : undefined);
    setRange(v);
  };
  const handle = async (a: FenceAlarm, s: 1 | 2) => {
    try {
      await geoApi.handleAlarms([a.id], s);
      message.success(t(s === 2 ? 'alarm.canceled' : 'alarm.responded'));
      await qc.invalidateQueries({ queryKey: [...geoKeys.all, 'alarms'] });
    } catch (e) {
      fail(e);
    }
  };
  const who = (name: string, at: number) => (at ? `${name} · ${dayjs(at).format(dateTime)}` : '—');
  return (
    <div data-testid="fence-alarms">
      <Space wrap style={{ marginBottom: 8 }}>
        <Select allowClear placeholder={t('fence.name')} value={fenceid} onChange={setFenceid} options={fences.map((f) => ({ value: f.fenceid, label: f.name }))} style={{ width: 140 }} />
        <Select allowClear placeholder={t('alarm.status')} value={status} onChange={setStatus} options={[0, 1, 2].map((s) => ({ value: String(s), label: t(`alarm.statuses.${s}`) }))} style={{ width: 120 }} />
        <DatePicker.RangePicker showTime size="small" value={range} onChange={(v) => onRange(v && v[0] && v[1] ? [v[0], v[1]] : null)} status={rangeError ? 'error' : undefined} />
      </Space>
      {rangeError && <div className="map-error">{rangeError}</div>}
      <DataTable<FenceAlarm>
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data?.list ?? []}
        pagination={{ current: page.pageNo, pageSize: page.pageSize, total: q.data?.total ?? 0, size: 'small', onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
        columns={[
          { key: 'time', title: t('alarm.time'), render: (_, a) => dayjs(a.time).format(dateTime), width: 150 },
          { key: 'ms', title: t('alarm.terminal'), render: (_, a) => a.msName || a.msId, ellipsis: true },
          { key: 'fence', title: t('fence.name'), dataIndex: 'fenceName', ellipsis: true },
          { key: 'type', title: t('alarm.type'), render: (_, a) => <Tag color={a.type === 'leave' ? 'orange' : 'red'}>{t(`alarm.types.${a.type}`)}</Tag>, width: 80 },
          { key: 'pos', title: t('alarm.position'), render: (_, a) => `${a.lat.toFixed(5)}, ${a.lng.toFixed(5)}`, width: 150 },
          { key: 'status', title: t('alarm.status'), render: (_, a) => <span data-status={a.status}>{t(`alarm.statuses.${a.status}`)}</span>, width: 90 },
          { key: 'resp', title: t('alarm.responder'), render: (_, a) => who(a.responder, a.responseTime), ellipsis: true },
          { key: 'close', title: t('alarm.closer'), render: (_, a) => who(a.closer, a.closeTime), ellipsis: true },
          {
            key: 'act',
            title: '',
            fixed: 'right',
            width: 130,
            render: (_, a) =>
              a.status < 2 ? (
                <Space size={2}>
                  {a.status === 0 && (
                    <Button size="small" type="link" onClick={() => handle(a, 1)}>
                      {t('alarm.respond')}
                    </Button>
                  )}
                  <Button size="small" type="link" danger onClick={() => handle(a, 2)} data-testid="alarm-cancel">
                    {t('alarm.cancel')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
