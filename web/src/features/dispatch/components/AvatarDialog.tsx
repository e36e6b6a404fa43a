import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Modal, Radio, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import type { TerminalKind } from '../../../shared/directory/model';
import { KIND_ICON } from './icons';

export const AVATAR_MAX_BYTES = 50 * 1024; // logos and images at most 50 KB (spec §5)
const ICONS: TerminalKind[] = ['dispatcher', 'app', 'gateway', 'radio', 'sos', 'camera'];

/** Avatar/icon setting: needs both an icon and an image (spec §5). */
export function AvatarDialog({ open, onClose, onSave }: { open: boolean; onClose: () => void; onSave: (icon: string, image: string) => Promise<void> }) {
  const { t } = useTranslation('dispatch');
  const [icon, setIcon] = useState<string>();
  const [image, setImage] = useState<string>();
  const [error, setError] = useState<string>();

  const ok = async () => {
    if (!icon || !image) return setError(t('avatar.required'));
    await onSave(icon, image);
  };

  return (
    <Modal open={open} title={t('avatar.title')} onOk={ok} onCancel={onClose} destroyOnHidden data-testid="avatar-dialog">
      <p>{t('avatar.icon')}</p>
      <Radio.Group value={icon} onChange={(e) => setIcon(e.target.value as string)} optionType="button" options={ICONS.map((k) => ({ value: k, label: KIND_ICON[k], title: t(`kind.${k}`) }))} />
      <p style={{ marginTop: 16 }}>{t('avatar.image')}</p>
      <Upload
        accept="image/png,image/jpeg"
        maxCount={1}
        listType="picture"
        beforeUpload={(file) => {
          if (file.size > AVATAR_MAX_BYTES) {
            setError(t('avatar.tooLarge'));
            return Upload.LIST_IGNORE;
          }
          const r = new FileReader();
          r.onload = () => setImage(String(r.result));
          r.readAsDataURL(file);
          setError(undefined);
          return false;
        }}
      >
        <a>
          <UploadOutlined /> {t('avatar.choose')}
        </a>
      </Upload>
      {image && <img src={image} alt="" style={{ width: 48, height: 48, objectFit: 'cover', marginTop: 8, borderRadius: 24 }} />}
      {error && <Alert type="error" message={error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
