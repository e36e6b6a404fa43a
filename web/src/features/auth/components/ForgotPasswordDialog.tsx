import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Form, Input, Modal } from 'antd';
import { ApiError } from '../../../shared/http/client';
import { useSettings } from '../../../shared/settings';
import { authApi } from '../api';
import { NEW_PASSWORD_RE, recoveryErrorKey } from '../passwordRules';
import { EmailCodeItems, confirmRules } from './EmailCodeItems';

interface Values {
  uid: string;
  email: string;
  verifyCode: string;
  newPwd: string;
  confirm: string;
}

/** Forgot password: an e-mailed verification code, then a new password (spec §4, §5, §8). */
export function ForgotPasswordDialog({ open, onClose, initialAccount }: { open: boolean; onClose: () => void; initialAccount?: string }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const language = useSettings((s) => s.language);
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [saving, setSaving] = useState(false);

  const fail = (e: unknown) => message.error(t(recoveryErrorKey(e instanceof ApiError ? e.code : '')));

  const sendCode = async () => {
    const { uid, email } = await form.validateFields(['uid', 'email']);
    setSending(true);
    try {
      const r = await authApi.getVerifyCode({ uid, email, type: 'reset', lang: language });
      if (r === undefined) throw new ApiError('system');
      setSent(true);
      message.success(t('recovery.codeSent'));
    } catch (e) {
      fail(e);
    } finally {
      setSending(false);
    }
  };

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await authApi.resetPassword({ uid: v.uid, email: v.email, verifyCode: v.verifyCode, newPwd: v.newPwd });
      message.success(t('recovery.done'));
      form.resetFields();
      setSent(false);
      onClose();
    } catch (e) {
      fail(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('recovery.title')} onCancel={onClose} onOk={save} okText={t('recovery.reset')} confirmLoading={saving} okButtonProps={{ disabled: !sent }} destroyOnHidden data-testid="forgot-dialog">
      <Form form={form} layout="vertical" initialValues={{ uid: initialAccount }} requiredMark={false}>
        <Form.Item name="uid" label={t('account')} rules={[{ required: true, whitespace: true, message: t('accountRequired') }]}>
          <Input />
        </Form.Item>
        <EmailCodeItems onSend={sendCode} sending={sending} sendLabel={sent ? t('recovery.resend') : t('recovery.sendCode')} codeDisabled={!sent} />
        <Form.Item name="newPwd" label={t('pwd.new')} rules={[{ required: true, message: t('pwd.newRequired') }, { pattern: NEW_PASSWORD_RE, message: t('pwd.rule') }]}>
          <Input.Password disabled={!sent} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('pwd.confirm')} dependencies={['newPwd']} rules={confirmRules(t)}>
          <Input.Password disabled={!sent} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
