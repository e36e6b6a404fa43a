import { Modal, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../shared/branding/store';

export function ReleaseNotesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('app');
  const version = useBranding((s) => s.productVersion ?? s.clientConfig.version);
  const notes = t('release.items', { returnObjects: true }) as string[];
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('releaseNotes')} data-testid="release-notes">
      <Typography.Paragraph type="secondary">{t('release.version', { version: version ?? '—' })}</Typography.Paragraph>
      <Timeline items={notes.map((n) => ({ children: n }))} />
    </Modal>
  );
}
