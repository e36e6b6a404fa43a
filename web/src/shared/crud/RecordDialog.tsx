// The modal of a CRUD panel's add/edit form (issue 31): titled by the feature's dialog.editTitle or
// dialog.addTitle, saved with its dialog.save, closed with dialog.cancel, its form dropped on close so the next
// opening starts from the record it is given.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from 'antd';

export interface RecordDialogProps {
  /** The feature whose dialog.* words the modal. */
  ns: string;
  open: boolean;
  /** An existing record is edited (else one is added). */
  editing: boolean;
  saving: boolean;
  onSave: () => unknown;
  onClose: () => void;
  /** The save button's data-testid. */
  saveTestId: string;
  children: ReactNode;
}

export function RecordDialog({ ns, open, editing, saving, onSave, onClose, saveTestId, children }: RecordDialogProps) {
  const { t } = useTranslation(ns);
  return (
    <Modal
      open={open}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      onCancel={onClose}
      onOk={() => void onSave()}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': saveTestId }}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
