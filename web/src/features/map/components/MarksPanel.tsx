// Markers (spec §2 map tools "markers", types point, line and shape; §5 marker link format), group colours and
// terminal icons (docs/geo.md "Group colours and terminal icons").
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, ColorPicker, Form, Input, Modal, Radio, Select, Space, Tabs, Tag } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import { NameCell } from './NameCell';
import type { Feature, Geometry, LineString, Point, Polygon } from 'geojson';
import { useFail } from '../useFail';
import { useDirectory } from '../../../shared/directory/store';
import { geoApi, geoKeys, isValidColor, isValidMarkLink, type Mark, type MarkType } from '../../../shared/geo/api';
import { DEFAULT_MARK_COLOR } from '../../../map/layers/MarksLayer';
import type { DrawRequest } from './GeofencePanel';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { EditDeleteLinks } from './RowActions';

const DRAW_MODE: Record<MarkType, 'point' | 'linestring' | 'polygon'> = { point: 'point', line: 'linestring', shape: 'polygon' };
export const MARK_NAME_MAX = 64;

/** Built-in terminal icons: the key and an SVG picture (sent as a data: URL, spec §5 "needs icon and image"). */
export const TERMINAL_ICONS: Record<string, string> = {
  car: '<path d="M5 11l1.5-4.5A2 2 0 0 1 8.4 5h7.2a2 2 0 0 1 1.9 1.5L19 11v6h-2v-2H7v2H5z" fill="#1677ff"/><circle cx="8" cy="13" r="1.3" fill="#fff"/><circle cx="16" cy="13" r="1.3" fill="#fff"/>',
  person: '<circle cx="12" cy="7" r="3.2" fill="#2fb344"/><path d="M5.5 19a6.5 6.5 0 0 1 13 0z" fill="#2fb344"/>',
  truck: '<path d="M3 7h11v8H3zM14 10h4l3 3v2h-7z" fill="#fa8c16"/><circle cx="7" cy="16.5" r="1.7" fill="#595959"/><circle cx="17" cy="16.5" r="1.7" fill="#595959"/>',
  bike: '<circle cx="6.5" cy="15" r="3.3" fill="none" stroke="#722ed1" stroke-width="1.8"/><circle cx="17.5" cy="15" r="3.3" fill="none" stroke="#722ed1" stroke-width="1.8"/><path d="M6.5 15l4-6h4l3 6M10.5 9l2 6" fill="none" stroke="#722ed1" stroke-width="1.8"/>',
  boat: '<path d="M4 15h16l-2.5 4h-11zM11 4v10H6z" fill="#13c2c2"/><path d="M12 6l5 8h-5z" fill="#08979c"/>',
  shield: '<path d="M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6z" fill="#f5222d"/>',
};

export function iconDataUrl(key: string): string {
  const body = TERMINAL_ICONS[key] ?? TERMINAL_ICONS.person!;
  return `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="48" height="48"><circle cx="12" cy="12" r="11.5" fill="#fff"/>${body}</svg>`)}`;
}

export function MarksPanel({ marks, requestDraw, onLocate }: { marks: Mark[]; requestDraw: (r: DrawRequest | null) => void; onLocate: (m: Mark) => void }) {
  const { t } = useTranslation('map');
  return (
    <Tabs
      size="small"
      items={[
        { key: 'marks', label: t('marks.tab'), children: <MarkList marks={marks} requestDraw={requestDraw} onLocate={onLocate} /> },
        { key: 'colors', label: t('marks.groupColors'), children: <GroupColors /> },
        { key: 'icons', label: t('marks.terminalIcons'), children: <TerminalIcons /> },
      ]}
    />
  );
}

interface MarkForm {
  name: string;
  color: string;
  link?: string;
  remark?: string;
}

function MarkList({ marks, requestDraw, onLocate }: { marks: Mark[]; requestDraw: (r: DrawRequest | null) => void; onLocate: (m: Mark) => void }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const fail = useFail();
  const [type, setType] = useState<MarkType>('point');
  const [drawing, setDrawing] = useState(false);
  const [editing, setEditing] = useState<{ mark?: Mark; geometry?: Point | LineString | Polygon; type: MarkType } | null>(null);
  const [form] = Form.useForm<MarkForm>();
  const refresh = () => qc.invalidateQueries({ queryKey: geoKeys.marks() });

  const startDraw = () => {
    setDrawing(true);
    requestDraw({
      mode: DRAW_MODE[type],
      onFinish: (f: Feature<Geometry>) => {
        setDrawing(false);
        requestDraw(null);
        form.setFieldsValue({ name: '', color: DEFAULT_MARK_COLOR, link: '', remark: '' });
        setEditing({ type, geometry: f.geometry as Point | LineString | Polygon });
      },
    });
  };
  const save = async () => {
    const v = await form.validateFields();
    const color = typeof v.color === 'string' ? v.color : DEFAULT_MARK_COLOR;
    const body = { name: v.name.trim(), color, link: v.link?.trim() ?? '', remark: v.remark ?? '' };
    try {
      if (editing?.mark) await geoApi.updateMark(editing.mark.id, body);
      else if (editing?.geometry) await geoApi.addMark({ type: editing.type, geometry: editing.geometry, ...body });
      message.success(t('done.saved'));
      setEditing(null);
      await refresh();
    } catch (e) {
      fail(e);
    }
  };
  const del = async (m: Mark) => {
    try {
      await geoApi.deleteMarks([m.id]);
      await refresh();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <div data-testid="marks-panel">
      <Space wrap style={{ marginBottom: 8 }}>
        <Radio.Group optionType="button" size="small" value={type} onChange={(e) => setType(e.target.value)} options={(['point', 'line', 'shape'] as const).map((x) => ({ value: x, label: t(`marks.types.${x}`) }))} />
        <Button size="small" type={drawing ? 'primary' : 'default'} onClick={startDraw} data-testid="mark-draw">
          {drawing ? t('fence.drawing') : t('marks.add')}
        </Button>
      </Space>
      {drawing && <div className="map-hint">{t(`marks.hint.${type}`)}</div>}
      <DataTable<Mark>
        rowKey="id"
        dataSource={marks}
        pagination={{ pageSize: 8, size: 'small' }}
        onRow={(m) => ({ onClick: () => onLocate(m) })}
        columns={[
          { key: 'name', title: t('marks.name'), render: (_, m) => <NameCell color={m.color || DEFAULT_MARK_COLOR} name={m.name} />, ellipsis: true, width: 160 },
          { key: 'type', title: t('marks.type'), render: (_, m) => <Tag>{t(`marks.types.${m.type}`)}</Tag>, width: 80 },
          { key: 'link', title: t('marks.link'), render: (_, m) => (m.link ? <a href={m.link} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>{t('marks.open')}</a> : '—'), width: 70 },
          {
            key: 'act',
            title: '',
            width: 110,
            render: (_, m) => (
              <Space size={2} onClick={(e) => e.stopPropagation()}>
                <EditDeleteLinks
                  onEdit={() => (form.setFieldsValue({ name: m.name, color: m.color || DEFAULT_MARK_COLOR, link: m.link, remark: m.remark }), setEditing({ mark: m, type: m.type }))}
                  confirm={t('marks.confirmDelete', { name: m.name })}
                  onDelete={() => del(m)}
                />
              </Space>
            ),
          },
        ]}
      />
      <Modal open={!!editing} title={editing?.mark ? t('marks.editTitle') : t('marks.newTitle')} onCancel={() => setEditing(null)} onOk={save} okText={t('save')} cancelText={t('cancel')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t('marks.name')} rules={[{ required: true, whitespace: true, message: t('marks.nameRequired') }, { max: MARK_NAME_MAX, message: t('fence.nameTooLong', { max: MARK_NAME_MAX }) }]}>
            <Input data-testid="mark-name" />
          </Form.Item>
          <Form.Item name="color" label={t('marks.color')} getValueFromEvent={(c) => (typeof c === 'string' ? c : c?.toHexString?.())} rules={[{ validator: (_, v) => (isValidColor(v) ? Promise.resolve() : Promise.reject(new Error(t('marks.badColor')))) }]}>
            <ColorPicker format="hex" disabledAlpha />
          </Form.Item>
          <Form.Item name="link" label={t('marks.link')} rules={[{ validator: (_, v) => (isValidMarkLink(v?.trim()) ? Promise.resolve() : Promise.reject(new Error(t('marks.badLink')))) }]}>
            <Input placeholder="https://" data-testid="mark-link" />
          </Form.Item>
          <Form.Item name="remark" label={t('marks.remark')} rules={[{ max: 512 }]}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

function GroupColors() {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const fail = useFail();
  const groups = useDirectory((s) => s.groups);
  const list = useMemo(() => Object.values(groups).filter((g) => g.kind === 'fixed').sort((a, b) => a.name.localeCompare(b.name)), [groups]);
  const save = async (gid: string, color: string) => {
    try {
      await geoApi.groupColor(gid, color);
      message.success(t('done.saved'));
    } catch (e) {
      fail(e);
    }
  };
  return (
    <DataTable
      rowKey="gid"
      dataSource={list}
      pagination={{ pageSize: 10, size: 'small' }}
      columns={[
        { key: 'name', title: t('marks.group'), dataIndex: 'name' },
        {
          key: 'color',
          title: t('marks.color'),
          width: 150,
          render: (_, g) => (
            <Space>
              <ColorPicker size="small" format="hex" disabledAlpha value={g.color || undefined} onChangeComplete={(c) => save(g.gid, c.toHexString())} />
              {g.color && (
                <Button size="small" type="link" onClick={() => save(g.gid, '')}>
                  {t('marks.reset')}
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}

function TerminalIcons() {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const fail = useFail();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [icon, setIcon] = useState('car');
  const save = async () => {
    if (!msIds.length) return message.warning(t('marks.pickTerminals'));
    try {
      await geoApi.terminalIcon(msIds, icon, iconDataUrl(icon));
      message.success(t('done.saved'));
      setMsIds([]);
    } catch (e) {
      fail(e);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <TerminalPicker multiple value={msIds} onChange={setMsIds} style={{ width: '100%' }} placeholder={t('marks.pickTerminals')} />
      <Select
        value={icon}
        onChange={setIcon}
        style={{ width: '100%' }}
        options={Object.keys(TERMINAL_ICONS).map((k) => ({ value: k, label: (<Space><img src={iconDataUrl(k)} width={20} height={20} alt="" />{t(`marks.icons.${k}`)}</Space>) }))}
      />
      <Button type="primary" onClick={save}>
        {t('marks.applyIcon')}
      </Button>
    </Space>
  );
}
