import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Form, Input, Modal, Tabs } from 'antd';
import { ApiError } from '../../../shared/http/client';
import { useSettings } from '../../../shared/settings';
import { authApi } from '../api';
import { NEW_PASSWORD_RE, recoveryErrorKey } from '../passwordRules';
import { reauthAccount } from '../remember';
import { useSession } from '../../../shared/session';
import { UnlockAccountForm } from './UnlockAccountForm';
import { EmailCodeItems, confirmRules } from './EmailCodeItems';

interface PasswordValues {
  oldPwd: string;
  newPwd: string;
  confirm: string;
}

interface BindValues {
  auth: string;
  email: string;
  verifyCode: string;
}

const codeOf = (e: unknown) => (e instanceof ApiError ? e.code : '');

/**
 * Account security: change password (spec §5: all three required, confirmation matches, new differs from old, the
 * new-password rule), bind an e-mail (format checked, verification code, "e-mail already exists") and, for an
 * administrator, unlock an account of its customer (`unlockUser`).
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const session = useSession((s) => s.session);
  const language = useSettings((s) => s.language);
  const [pwdForm] = Form.useForm<PasswordValues>();
  const [bindForm] = Form.useForm<BindValues>();
  const [tab, setTab] = useState<'password' | 'bind' | 'unlock'>('password');
  const [saving, setSaving] = useState(false);
  const [sending, setSending] = useState(false);

  const savePassword = async () => {
    const v = await pwdForm.validateFields();
    if (!session) return;
    setSaving(true);
    try {
      await authApi.updatePassword({ msId: session.userInfo.msId, oldPwd: v.oldPwd, newPwd: v.newPwd, account: session.account });
      await reauthAccount.save(session.account, v.newPwd);
      message.success(t('pwd.changed'));
      pwdForm.resetFields();
      onClose();
    } catch (e) {
      message.error(t(recoveryErrorKey(codeOf(e))));
    } finally {
      setSaving(false);
    }
  };

  const sendCode = async () => {
    const { email } = await bindForm.validateFields(['email']);
    if (!session) return;
    setSending(true);
    try {
      await authApi.getVerifyCode({ uid: session.account, email, type: 'bind', lang: language });
      message.success(t('recovery.codeSent'));
    } catch (e) {
      message.error(t(recoveryErrorKey(codeOf(e))));
    } finally {
      setSending(false);
    }
  };

  const bind = async () => {
    const v = await bindForm.validateFields();
    if (!session) return;
    setSaving(true);
    try {
      await authApi.bindEmail({ uid: session.account, auth: v.auth, email: v.email, verifyCode: v.verifyCode });
      message.success(t('bind.done'));
      bindForm.resetFields();
      onClose();
    } catch (e) {
      message.error(t(recoveryErrorKey(codeOf(e) === '2' ? 'bind-2' : codeOf(e))));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('bind.title')}
      onCancel={onClose}
      onOk={tab === 'password' ? savePassword : bind}
      okText={tab === 'bind' ? t('bind.submit') : undefined}
      footer={tab === 'unlock' ? null : undefined}
      confirmLoading={saving}
      destroyOnHidden
      data-testid="change-password-dialog"
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'password' | 'bind' | 'unlock')}
        items={[
          {
            key: 'password',
            label: t('pwd.tab'),
            children: (
              <Form form={pwdForm} layout="vertical" requiredMark={false}>
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
                <Form.Item name="confirm" label={t('pwd.confirm')} dependencies={['newPwd']} rules={confirmRules(t)}>
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              </Form>
            ),
          },
          {
            key: 'bind',
            label: t('bind.tab'),
            children: (
              <Form form={bindForm} layout="vertical" requiredMark={false}>
                <Form.Item name="auth" label={t('bind.password')} rules={[{ required: true, message: t('passwordRequired') }]}>
                  <Input.Password autoComplete="current-password" />
                </Form.Item>
                <EmailCodeItems onSend={sendCode} sending={sending} sendLabel={t('recovery.sendCode')} />
              </Form>
            ),
          },
          ...(session?.userInfo.admin ? [{ key: 'unlock', label: t('unlock.tab'), children: <UnlockAccountForm /> }] : []),
        ]}
      />
    </Modal>
  );
}
