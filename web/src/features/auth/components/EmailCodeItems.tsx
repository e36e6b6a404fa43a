import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { EMAIL_RE } from '../passwordRules';

/**
 * The form items of an e-mailed verification code (spec §5, §8): the address with its "send code" button, then the
 * six-digit code. Binding an e-mail and resetting a forgotten password ask for them alike; the form around them
 * names its fields `email` and `verifyCode`.
 */
export function EmailCodeItems({ onSend, sending, sendLabel, codeDisabled }: { onSend: () => void; sending: boolean; sendLabel: string; codeDisabled?: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <Form.Item label={t('recovery.email')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="email" noStyle rules={[{ required: true, message: t('recovery.emailRequired') }, { pattern: EMAIL_RE, message: t('recovery.emailInvalid') }]}>
            <Input type="email" />
          </Form.Item>
          <Button onClick={onSend} loading={sending}>
            {sendLabel}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="verifyCode" label={t('recovery.code')} rules={[{ required: true, message: t('recovery.codeRequired') }, { pattern: /^\d{6}$/, message: t('recovery.codeError') }]}>
        <Input maxLength={6} disabled={codeDisabled} />
      </Form.Item>
    </>
  );
}

/** The rules of a password confirmation: required, and the same as the field it confirms. */
export function confirmRules(t: (key: string) => string, field = 'newPwd'): Rule[] {
  return [
    { required: true, message: t('pwd.confirmRequired') },
    ({ getFieldValue }) => ({ validator: (_, v) => (!v || v === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(t('pwd.mismatch')))) }),
  ];
}
