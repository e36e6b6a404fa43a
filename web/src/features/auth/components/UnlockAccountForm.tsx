import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Form, Input, Popconfirm, type ButtonProps } from 'antd';
import { useErrorText } from '../../../shared/errorText';
import { authApi } from '../api';

/**
 * An administrator lifts the lockout of an account of its customer (docs/api.md `unlockUser`): five wrong
 * passwords in a row lock a dispatcher's or a terminal's account for 10 minutes, and the sign-in (or the radio)
 * says "locked". The account is typed in, confirmed, and the answer shown.
 */
export function UnlockAccountForm() {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const errorText = useErrorText('auth');
  const [form] = Form.useForm<{ uid: string }>();
  const [busy, setBusy] = useState(false);
  const uid = Form.useWatch('uid', form) ?? '';

  const unlock = async () => {
    setBusy(true);
    try {
      const r = await authApi.unlock(uid.trim());
      message.success(t('unlock.done', { uid: r?.msId ?? uid.trim() }));
      form.resetFields();
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} data-testid="unlock-form">
      <p>{t('unlock.help')}</p>
      <Form.Item name="uid" label={t('account')} rules={[{ required: true, message: t('unlock.required') }, { pattern: /^\d{8}$/, message: t('codes.1') }]}>
        <Input maxLength={8} placeholder={t('accountPlaceholder')} data-testid="unlock-uid" />
      </Form.Item>
      <Popconfirm
        title={t('unlock.confirm', { uid: uid.trim() })}
        onConfirm={unlock}
        okText={t('unlock.submit')}
        okButtonProps={{ 'data-testid': 'unlock-confirm' } as ButtonProps}
        onOpenChange={(open) => open && void form.validateFields().catch(() => {})}
        disabled={!/^\d{8}$/.test(uid.trim())}
      >
        <Button type="primary" danger loading={busy} disabled={!/^\d{8}$/.test(uid.trim())} data-testid="unlock-submit">
          {t('unlock.submit')}
        </Button>
      </Popconfirm>
    </Form>
  );
}
