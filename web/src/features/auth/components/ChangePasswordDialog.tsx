import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Form, Input, Modal } from 'antd';
import { ApiError } from '../../../shared/http/client';
import { authApi } from '../api';
import { NEW_PASSWORD_RE, recoveryErrorKey } from '../passwordRules';
import { reauthAccount } from '../remember';
import { useSession } from '../session';

interface Values {
  oldPwd: string;
  newPwd: string;
  confirm: string;
}

/** Change password (spec §5): all three required, confirmation matches, new differs from old. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const session = useSession((s) => s.session);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const v = await form.validateFields();
    if (!session) return;
    setSaving(true);
    try {
      await authApi.updatePassword({ msId: session.userInfo.msId, oldPwd: v.oldPwd, newPwd: v.newPwd, account: session.account });
      await reauthAccount.save(session.account, v.newPwd);
      message.success(t('pwd.changed'));
      form.resetFields();
      onClose();
    } catch (e) {
      message.error(t(recoveryErrorKey(e instanceof ApiError ? e.code : '')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('pwd.title')} onCancel={onClose} onOk={save} confirmLoading={saving} destroyOnHidden data-testid="change-password-dialog">
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="oldPwd" label={t('pwd.old')} rules={[{ required: true, message: t('pwd.oldRequired') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPwd"
          label={t('pwd.new')}
          dependencies={['oldPwd']}
          rules={[
            { required: true, message: t('pwd.newRequired') },
            { pattern: NEW_PASSWORD_RE, message: t('pwd.rule') },
            ({ getFieldValue }) => ({ validator: (_, v) => (!v || v !== getFieldValue('oldPwd') ? Promise.resolve() : Promise.reject(new Error(t('pwd.sameAsOld')))) }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('pwd.confirm')}
          dependencies={['newPwd']}
          rules={[
            { required: true, message: t('pwd.confirmRequired') },
            ({ getFieldValue }) => ({ validator: (_, v) => (!v || v === getFieldValue('newPwd') ? Promise.resolve() : Promise.reject(new Error(t('pwd.mismatch')))) }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
