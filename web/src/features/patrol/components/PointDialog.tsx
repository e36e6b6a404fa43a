// Add or edit a patrol point: name and NFC value checked unique in the area as they are typed (checkPointName,
// checkPointNfc), the position typed or clicked on the map, the radius of an "I am here" check-in.
import { useTranslation } from 'react-i18next';
import { Col, Form, Input, InputNumber, Modal, Row } from 'antd';
import { patrolApi, type Point, type PointInput } from '../api';
import { AreaSelect } from './AreaSelect';
import { useSave } from '../../../shared/crud/useSave';
import { PatrolMap } from './PatrolMap';

/** The texts a point's area holds once each, checked with the server as they are typed (once the area is chosen). */
const UNIQUE = [
  { field: 'name', kind: 'name', max: 50, testId: 'point-name', help: undefined },
  { field: 'nfcValue', kind: 'nfc', max: 64, testId: 'point-nfc', help: 'point.nfcHelp' },
] as const;

export function PointDialog({ point, areaId, onClose, onSaved }: { point: Point | null; areaId?: number; onClose: () => void; onSaved: (p: Point) => void }) {
  const { t } = useTranslation('patrol');
  const [form] = Form.useForm<PointInput>();
  const { saving, submit } = useSave('patrol', t('done.saved'));
  const lat = Form.useWatch('lat', form);
  const lng = Form.useWatch('lng', form);
  const radius = Form.useWatch('radius', form);
  const name = Form.useWatch('name', form);

  const unique = (kind: 'name' | 'nfc') => async (_: unknown, v: string) => {
    const area = form.getFieldValue('areaId') as number | undefined;
    if (!v?.trim() || !area) return;
    const r = kind === 'name' ? await patrolApi.checkName(v.trim(), area, point?.id) : await patrolApi.checkNfc(v.trim(), area, point?.id);
    if (!r.available) throw new Error(t(kind === 'name' ? 'errors.1020' : 'errors.1021'));
  };

  const save = () =>
    submit(form, (v) => patrolApi.savePoint({ ...v, id: point?.id, name: v.name.trim(), nfcValue: v.nfcValue.trim(), remark: v.remark ?? '' }), onSaved);


  const here = typeof lat === 'number' && typeof lng === 'number' ? [{ id: point?.id ?? 0, name: name ?? '', lat, lng, radius: radius ?? 50, selected: true }] : [];
  return (
    <Modal open title={t(point ? 'point.edit' : 'point.add')} onCancel={onClose} onOk={() => void save()} confirmLoading={saving} width={760} okButtonProps={{ 'data-testid': 'point-save' }}>
      <Form
        form={form}
        layout="vertical"
        initialValues={point ?? { areaId, radius: 50, remark: '' }}
        data-testid="point-form"
      >
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="areaId" label={t('fields.area')} rules={[{ required: true, message: t('rules.required') }]}>
              <AreaSelect testId="point-area" />
            </Form.Item>
          </Col>
          {UNIQUE.map((u) => (
            <Col span={8} key={u.field}>
              <Form.Item
                name={u.field}
                label={t(`fields.${u.field}`)}
                tooltip={u.help && t(u.help)}
                validateDebounce={400}
                dependencies={['areaId']}
                rules={[{ required: true, whitespace: true, message: t('rules.required') }, { max: u.max, message: t(`rules.max${u.max}`) }, { validator: unique(u.kind) }]}
              >
                <Input data-testid={u.testId} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="lat" label={t('fields.lat')} rules={[{ required: true, message: t('point.pick') }]}>
              <InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} data-testid="point-lat" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="lng" label={t('fields.lng')} rules={[{ required: true, message: t('point.pick') }]}>
              <InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} data-testid="point-lng" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="radius" label={t('fields.radius')} rules={[{ required: true, message: t('rules.required') }]}>
              <InputNumber min={5} max={2000} addonAfter="m" style={{ width: '100%' }} data-testid="point-radius" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="remark" label={t('fields.remark')} rules={[{ max: 200, message: t('rules.max200') }]}>
          <Input />
        </Form.Item>
      </Form>
      <p style={{ margin: '0 0 6px' }}>{t('point.pick')}</p>
      <PatrolMap points={here} height={260} onPick={(la, ln) => form.setFieldsValue({ lat: la, lng: ln })} />
    </Modal>
  );
}
