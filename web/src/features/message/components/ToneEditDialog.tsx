import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Form, Input, InputNumber, Modal, Space, Typography, type ButtonProps } from 'antd';
import { PictureOutlined, SoundOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { errorCode, messageApi, messageKeys, type Tone } from '../api';
import { useCodeText } from '../codes';
import { checkToneName, formatSize, MAX_TONE_NAME } from '../validation';
import { FileButton } from './FileButton';
import { UploadList } from './UploadList';
import { useUploads } from './useUploads';

type Field = 'name' | 'sound' | 'icon' | 'sort' | 'general';

/** Which field a server code belongs to (docs/messages.md §7). */
export function toneErrorField(code: string): Field {
  if (['76', '77', '10', '74'].includes(code)) return 'name';
  if (['75', '73'].includes(code)) return 'sound';
  if (code === '78') return 'icon';
  return 'general';
}

const AUDIO_ACCEPT = 'audio/*,.mp3,.wav,.aac,.amr,.m4a,.ogg,.opus';
const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** Add or edit a tone: a name, a sort number, a sound (5 MB) and an image (1 MB), uploaded with progress bars. */
export function ToneEditDialog({ tone, onClose }: { tone?: Tone; onClose: () => void }) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const qc = useQueryClient();
  const [name, setName] = useState(tone?.name ?? '');
  const [sort, setSort] = useState<number>(tone?.sort ?? 0);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const sound = useUploads({ kind: 'audio', limit: 'toneSound', max: 1 });
  const icon = useUploads({ kind: 'image', limit: 'toneIcon', max: 1 });

  const soundUrl = sound.files[0]?.url ?? (sound.items.length ? undefined : tone?.fileUrl);
  const iconUrl = icon.files[0]?.url ?? (icon.items.length ? undefined : tone?.iconUrl);

  const save = async () => {
    const e: Partial<Record<Field, string>> = {};
    const nameError = checkToneName(name);
    if (nameError) e.name = nameError;
    if (sound.busy || icon.busy) e.general = 'uploading';
    else {
      if (!soundUrl) e.sound = '75';
      if (!iconUrl) e.icon = '78';
    }
    setErrors(e);
    if (Object.keys(e).length) return;
    setSaving(true);
    try {
      const body = { name: name.trim(), fileUrl: soundUrl!, iconUrl: iconUrl!, sort };
      if (tone) await messageApi.updateTone({ id: tone.id, ...body });
      else await messageApi.addTone(body);
      await qc.invalidateQueries({ queryKey: messageKeys.tones.all });
      onClose();
    } catch (err) {
      const code = errorCode(err);
      setErrors({ [toneErrorField(code)]: code });
    } finally {
      setSaving(false);
    }
  };

  const help = (f: Field) => (errors[f] ? (errors[f] === 'uploading' ? t('waitUploads') : codeText(errors[f]!)) : undefined);

  return (
    <Modal
      open
      title={tone ? t('tones.edit') : t('tones.add')}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ disabled: sound.busy || icon.busy, 'data-testid': 'tone-save' } as ButtonProps}
      destroyOnHidden
      data-testid="tone-dialog"
    >
      <Form layout="vertical" data-testid="tone-form">
        <Form.Item label={t('tones.name')} required validateStatus={errors.name ? 'error' : undefined} help={help('name')}>
          <Input
            value={name}
            maxLength={MAX_TONE_NAME * 2}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            data-testid="tone-name"
            data-error={errors.name ?? ''}
          />
        </Form.Item>
        <Form.Item label={t('tones.sort')}>
          <InputNumber min={0} max={9999} precision={0} value={sort} onChange={(v) => setSort(Number(v ?? 0))} data-testid="tone-sort" />
        </Form.Item>
        <Form.Item label={t('tones.sound')} required validateStatus={errors.sound ? 'error' : undefined} help={help('sound')} extra={t('tones.soundHint')}>
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Space>
              <FileButton icon={<SoundOutlined />} label={t('tones.chooseSound')} accept={AUDIO_ACCEPT} onPick={([f]) => f && sound.add(f)} testId="tone-sound-pick" inputTestId="tone-sound-input" />
              {!sound.items.length && tone?.fileName && (
                <Typography.Text type="secondary">
                  {tone.fileName} {tone.fileSize ? formatSize(tone.fileSize) : ''}
                </Typography.Text>
              )}
            </Space>
            <UploadList items={sound.items} testid="tone-sound" />
            {soundUrl && <audio src={soundUrl} controls preload="none" className="tone-audio" />}
          </Space>
        </Form.Item>
        <Form.Item label={t('tones.image')} required validateStatus={errors.icon ? 'error' : undefined} help={help('icon')} extra={t('tones.imageHint')}>
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Space>
              <FileButton icon={<PictureOutlined />} label={t('tones.chooseImage')} accept={IMAGE_ACCEPT} onPick={([f]) => f && icon.add(f)} testId="tone-icon-pick" inputTestId="tone-icon-input" />
              {iconUrl && <img src={iconUrl} alt="" className="tone-icon" />}
            </Space>
            <UploadList items={icon.items} testid="tone-icon" />
          </Space>
        </Form.Item>
        {errors.general && <Alert type="error" showIcon message={help('general')} data-testid="tone-error" />}
      </Form>
    </Modal>
  );
}
