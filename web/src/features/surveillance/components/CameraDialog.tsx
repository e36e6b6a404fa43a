// Add or edit a camera: stream id, RTSP address, transport, name.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import type { Camera, CameraInput } from '../api';

interface Props {
  open: boolean;
  camera: Camera | null;
  saving: boolean;
  onSave(c: CameraInput): void;
  onClose(): void;
}

/** Stream ids: letters, digits, '-', '_' and '.', at most 64 (the server's rule). */
export const STREAM_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** An rtsp:// or rtsps:// address with a host. */
export const RTSP_URL = /^rtsps?:\/\/[^\s/?#]+(\/\S*)?$/;

export function CameraDialog({ open, camera, saving, onSave, onClose }: Props) {
  const { t } = useTranslation('surveillance');
  const [form] = Form.useForm<CameraInput>();
  useEffect(() => {
    if (open) form.setFieldsValue(camera ? { ...camera } : { streamId: '', streamUrl: 'rtsp://', protocol: 0, name: '' });
  }, [open, camera, form]);
  return (
    <Modal open={open} title={camera ? t('dialog.edit') : t('dialog.add')} okText={t('dialog.save')} cancelText={t('dialog.cancel')}
      confirmLoading={saving} onCancel={onClose} destroyOnHidden
      onOk={() => void form.validateFields().then((v) => onSave({ ...v, id: camera?.id, protocol: v.protocol }))}>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="streamId" label={t('field.streamId')} rules={[{ required: true, message: t('rule.streamId') }, { pattern: STREAM_ID, message: t('rule.streamId') }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="name" label={t('field.name')} rules={[{ max: 40 }]}>
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item name="streamUrl" label={t('field.streamUrl')} rules={[{ required: true, message: t('rule.streamUrl') }, { pattern: RTSP_URL, message: t('rule.streamUrl') }]}>
          <Input maxLength={1024} placeholder="rtsp://user:password@192.168.1.64:554/Streaming/Channels/101" />
        </Form.Item>
        <Form.Item name="protocol" label={t('field.protocol')}>
          <Radio.Group options={[{ value: 0, label: t('protocol.0') }, { value: 1, label: t('protocol.1') }]} />
        </Form.Item>
        <Alert type="info" showIcon title={t('dialog.codecHint')} />
      </Form>
    </Modal>
  );
}
