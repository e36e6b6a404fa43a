// The edit dialogs of /indoor: a building (name, remark), a floor (name, level, plan image, scale by a number or by
// two points picked on the plan and their distance) and a beacon (address, name, RSSI at 1 m, environment decay;
// its place is where the plan was clicked) and a walkable area (a name for the polygon drawn on the plan, or
// deleting it). Every refusal shows the server's code in the user's language.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Radio, Space, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useErrorText } from '../../../shared/errorText';
import { indoorApi, uploadPlan, type Area, type Beacon, type Building, type Floor, type ScaleInput } from '../api';
import { polygonArea, polygonProblem, scaleFromRef, validDecay, validMac, validRssi } from '../plan';

/**
 * A dialog's call to the server: busy while it runs, then done with what it answered (the dialog closes), or the
 * failure's sentence in error. A check before the call shows its own sentence through setError.
 */
function useSubmit() {
  const errorText = useErrorText('indoor');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async <T,>(call: () => Promise<T>, done: (answer: T) => void) => {
    setBusy(true);
    setError(undefined);
    try {
      done(await call());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, submit };
}

export function BuildingDialog({ building, onClose }: { building: Building | null; onClose: (saved?: Building) => void }) {
  const { t } = useTranslation('indoor');
  const [name, setName] = useState(building?.name ?? '');
  const [remark, setRemark] = useState(building?.remark ?? '');
  const { error, busy, submit } = useSubmit();
  const save = () => submit(() => (building ? indoorApi.updateBuilding(building.id, name, remark) : indoorApi.addBuilding(name, remark)), onClose);
  return (
    <Modal open title={building ? t('building.edit') : t('building.new')} onOk={save} onCancel={() => onClose()} confirmLoading={busy} okText={t('save')} cancelText={t('cancel')}>
      <Form layout="vertical">
        <Form.Item label={t('building.name')} required>
          <Input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} data-testid="indoor-building-name" />
        </Form.Item>
        <Form.Item label={t('building.remark')}>
          <Input.TextArea value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} />
        </Form.Item>
        {error && <Alert type="error" title={error} showIcon />}
      </Form>
    </Modal>
  );
}

type ScaleMode = 'scale' | 'ref';

/**
 * A floor: name, level, plan image and scale. With "two points" the user clicks two points of the plan behind the
 * dialog (refPoints, from the page) and types their distance.
 */
export function FloorDialog({
  open,
  buildingId,
  floor,
  refPoints,
  onPickRef,
  onClose,
}: {
  open: boolean;
  buildingId: number;
  floor: Floor | null;
  refPoints: { x: number; y: number }[];
  onPickRef: () => void;
  onClose: (saved?: Floor) => void;
}) {
  const { t } = useTranslation('indoor');
  const [name, setName] = useState(floor?.name ?? '');
  const [level, setLevel] = useState<number>(floor?.level ?? 0);
  const [file, setFile] = useState<File>();
  const [mode, setMode] = useState<ScaleMode>(floor?.ref ? 'ref' : 'scale');
  const [scale, setScale] = useState<number | null>(floor?.scale ?? 0.05);
  const [distance, setDistance] = useState<number | null>(floor?.ref?.distance ?? null);
  const { error, setError, busy, submit } = useSubmit();
  const pts = refPoints.length === 2 ? refPoints : floor?.ref ? [{ x: floor.ref.x1, y: floor.ref.y1 }, { x: floor.ref.x2, y: floor.ref.y2 }] : [];
  const refScale = pts.length === 2 && distance ? scaleFromRef(pts[0].x, pts[0].y, pts[1].x, pts[1].y, distance) : undefined;

  const save = async () => {
    setError(undefined);
    if (!floor && !file) return setError(t('floor.needPlan'));
    let s: ScaleInput | undefined;
    if (mode === 'scale') {
      if (!scale || scale <= 0 || scale > 10) return setError(t('errors.155'));
      s = { scale };
    } else {
      if (pts.length !== 2 || !refScale) return setError(t('errors.155'));
      s = { refX1: pts[0].x, refY1: pts[0].y, refX2: pts[1].x, refY2: pts[1].y, refDistance: distance! };
    }
    await submit(async () => {
      const fileId = file ? await uploadPlan(file) : undefined;
      return floor ? indoorApi.updateFloor(floor.id, { name, level, fileId }, s) : indoorApi.addFloor({ buildingId, name, level, fileId }, s);
    }, onClose);
  };

  return (
    <Modal open={open} title={floor ? t('floor.edit') : t('floor.new')} onOk={save} onCancel={() => onClose()} confirmLoading={busy} okText={t('save')} cancelText={t('cancel')}>
      <Form layout="vertical">
        <Form.Item label={t('floor.name')} required>
          <Input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
        </Form.Item>
        <Form.Item label={t('floor.level')} extra={t('floor.levelHelp')}>
          <InputNumber value={level} min={-10} max={200} precision={0} onChange={(v) => setLevel(v ?? 0)} />
        </Form.Item>
        <Form.Item label={t('floor.plan')} required={!floor} extra={t('floor.planHelp')}>
          <Upload accept="image/png,image/jpeg,image/gif" maxCount={1} beforeUpload={(f) => {
              setFile(f);
              return false;
            }} onRemove={() => setFile(undefined)}>
            <Button icon={<UploadOutlined />}>{floor ? t('floor.replacePlan') : t('floor.choosePlan')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item label={t('floor.scale')}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as ScaleMode)}>
            <Radio value="scale">{t('floor.byNumber')}</Radio>
            <Radio value="ref" disabled={!floor}>
              {t('floor.byPoints')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {mode === 'scale' ? (
          <Form.Item label={t('floor.metresPerPixel')}>
            <InputNumber value={scale} min={0.0001} max={10} step={0.01} onChange={setScale} style={{ width: 160 }} />
          </Form.Item>
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Space>
              <Button onClick={onPickRef}>{t('floor.pickPoints')}</Button>
              <span>{t('floor.pointsPicked', { n: pts.length })}</span>
            </Space>
            <Form.Item label={t('floor.distance')}>
              <InputNumber value={distance} min={0.01} step={0.5} onChange={setDistance} suffix="m" style={{ width: 180 }} />
            </Form.Item>
            {refScale && <span>{t('floor.gives', { scale: refScale.toFixed(4) })}</span>}
          </Space>
        )}
        {!floor && <Alert type="info" title={t('floor.pointsLater')} style={{ marginTop: 8 }} />}
        {error && <Alert type="error" title={error} showIcon style={{ marginTop: 8 }} />}
      </Form>
    </Modal>
  );
}

/** A beacon placed at (x, y) of a floor, or an existing one (which may be deleted). */
export function BeaconDialog({
  floor,
  beacon,
  at,
  onClose,
}: {
  floor: Floor;
  beacon: Beacon | null;
  at: { x: number; y: number };
  onClose: (changed?: boolean) => void;
}) {
  const { t } = useTranslation('indoor');
  const [mac, setMac] = useState(beacon?.mac ?? '');
  const [name, setName] = useState(beacon?.name ?? '');
  const [rssi, setRssi] = useState<number | null>(beacon?.rssi ?? -59);
  const [decay, setDecay] = useState<number | null>(beacon?.decay ?? 2.2);
  const { error, setError, busy, submit } = useSubmit();
  useEffect(() => setError(undefined), [mac, rssi, decay, setError]);
  const save = async () => {
    if (!validMac(mac)) return setError(t('errors.156'));
    if (!validRssi(rssi)) return setError(t('errors.151'));
    if (!validDecay(decay)) return setError(t('errors.150'));
    const body = { mac, name, rssi: rssi!, decay: decay!, x: at.x, y: at.y };
    await submit(() => (beacon ? indoorApi.updateBeacon(beacon.id, body) : indoorApi.addBeacon({ ...body, floorId: floor.id })), () => onClose(true));
  };
  const remove = () => submit(() => indoorApi.deleteBeacons([beacon!.id]), () => onClose(true));
  return (
    <Modal
      open
      title={beacon ? t('beacon.edit') : t('beacon.new')}
      onCancel={() => onClose()}
      footer={[
        beacon && (
          <Popconfirm key="del" title={t('beacon.confirmDelete')} onConfirm={remove} okText={t('delete')} cancelText={t('cancel')}>
            <Button danger>{t('delete')}</Button>
          </Popconfirm>
        ),
        <Button key="cancel" onClick={() => onClose()}>
          {t('cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={save} data-testid="indoor-beacon-save">
          {t('save')}
        </Button>,
      ]}
    >
      <Form layout="vertical">
        <Form.Item label={t('beacon.mac')} required>
          <Input value={mac} onChange={(e) => setMac(e.target.value)} placeholder="C0:10:F4:00:01:01" data-testid="indoor-beacon-mac" />
        </Form.Item>
        <Form.Item label={t('beacon.name')}>
          <Input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
        </Form.Item>
        <Space size="large">
          <Form.Item label={t('beacon.rssi')} extra={t('beacon.rssiHelp')} required>
            <InputNumber value={rssi} min={-100} max={-50} precision={0} suffix="dBm" onChange={setRssi} />
          </Form.Item>
          <Form.Item label={t('beacon.decay')} extra={t('beacon.decayHelp')} required>
            <InputNumber value={decay} min={1.1} max={10} step={0.1} precision={1} onChange={setDecay} />
          </Form.Item>
        </Space>
        <div>{t('beacon.at', { x: at.x.toFixed(0), y: at.y.toFixed(0), mx: (at.x * floor.scale).toFixed(1), my: (at.y * floor.scale).toFixed(1) })}</div>
        {error && <Alert type="error" title={error} showIcon style={{ marginTop: 8 }} />}
      </Form>
    </Modal>
  );
}

/**
 * A walkable area (ADR 0023): saving the polygon drawn on the plan (points; a new area, or the new outline of
 * area) with its name, renaming an area, or deleting it. The polygon is checked as the server does (code 160).
 */
export function AreaDialog({
  floor,
  area,
  points,
  onRedraw,
  onClose,
}: {
  floor: Floor;
  area: Area | null;
  points?: [number, number][];
  /** Draw a new outline of the area on the plan. */
  onRedraw?: () => void;
  onClose: (changed?: boolean) => void;
}) {
  const { t } = useTranslation('indoor');
  const [name, setName] = useState(area?.name ?? '');
  const { error, busy, submit } = useSubmit();
  const outline = points ?? area?.points ?? [];
  const problem = points ? polygonProblem(points, floor) : undefined;
  const save = async () => {
    if (problem) return;
    await submit(() => (area ? indoorApi.updateArea(area.id, points ? { name, points } : { name }) : indoorApi.addArea(floor.id, name, outline)), () => onClose(true));
  };
  const remove = async () => {
    if (area) await submit(() => indoorApi.deleteAreas([area.id]), () => onClose(true));
  };
  return (
    <Modal
      open
      title={area ? t('area.edit') : t('area.new')}
      onCancel={() => onClose()}
      footer={
        <Space>
          {area && (
            <Popconfirm title={t('area.confirmDelete')} onConfirm={remove} okText={t('delete')} cancelText={t('cancel')}>
              <Button danger data-testid="indoor-area-delete">
                {t('delete')}
              </Button>
            </Popconfirm>
          )}
          {onRedraw && <Button onClick={onRedraw}>{t('area.redraw')}</Button>}
          <Button onClick={() => onClose()} data-testid="indoor-area-cancel">
            {t('cancel')}
          </Button>
          <Button type="primary" loading={busy} disabled={!!problem} onClick={save} data-testid="indoor-area-save">
            {t('save')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical">
        <Form.Item label={t('area.name')} help={t('area.nameHelp')}>
          <Input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} data-testid="indoor-area-name" />
        </Form.Item>
        <Form.Item>
          {t('area.size', { n: outline.length, m2: polygonArea(outline, floor).toFixed(1) })}
        </Form.Item>
        {problem && <Alert type="warning" showIcon title={t(`area.problem.${problem}`)} />}
        {error && <Alert type="error" title={error} showIcon />}
      </Form>
    </Modal>
  );
}
