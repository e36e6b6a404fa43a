// Close an alarm with a remark (state 2); remote close tells the terminal to stop alarming and waits for it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Checkbox, Input, Modal } from 'antd';
import { REMARK_MAX, type SosAlarm } from '../../../shared/alarms/sos';
import { useSave } from '../../../shared/crud/useSave';
import { closeAlarm } from '../../../shared/alarms/store';

export function CloseDialog({ alarm, onClose }: { alarm: SosAlarm | null; onClose: (closed?: SosAlarm) => void }) {
  const { t } = useTranslation('alarm');
  const { message } = App.useApp();
  const [remark, setRemark] = useState('');
  const [remote, setRemote] = useState(false);
  const { saving: busy, save } = useSave('alarm');
  const submit = async () => {
    if (!alarm) return;
    await save(
      () => closeAlarm(alarm.id, remark.trim(), remote),
      (a) => {
        message.success(t(remote ? 'done.remoteClosed' : 'done.closed'));
        setRemark('');
        setRemote(false);
        onClose(a);
      },
    );
  };
  return (
    <Modal
      open={!!alarm}
      title={t('closeDialog.title', { name: alarm ? alarm.msName || alarm.msId : '' })}
      okText={t('interrupt.close')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'close-dialog-ok' }}
      onOk={submit}
      onCancel={() => onClose()}
      destroyOnHidden
    >
      <Input.TextArea rows={3} maxLength={REMARK_MAX} showCount value={remark} onChange={(e) => setRemark(e.target.value)} placeholder={t('interrupt.remarkPlaceholder')} data-testid="close-dialog-remark" />
      <Checkbox style={{ marginTop: 12 }} checked={remote} onChange={(e) => setRemote(e.target.checked)} data-testid="close-dialog-remote">
        {t('interrupt.remote')}
      </Checkbox>
    </Modal>
  );
}
