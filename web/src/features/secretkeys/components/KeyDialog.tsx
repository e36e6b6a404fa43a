// Add or edit a secret key: a name, the key (typed, pasted or generated) and whether it becomes the current one.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input, Space, Switch } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { failureCode, useErrorText } from '../../../shared/errorText';
import { RecordDialog } from '../../../shared/crud/RecordDialog';
import { secretKeyApi, type SecretKey } from '../api';
import { generateKey, KEY_LENGTH, keyProblem } from '../format';

const NAME_MAX = 32;

export function KeyDialog({ editing, open, onClose, onSaved }: { editing: SecretKey | null; open: boolean; onClose: () => void; onSaved: (k: SecretKey) => void }) {
  const { t } = useTranslation('secretkeys');
  const errorText = useErrorText('secretkeys');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [current, setCurrent] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<unknown>(null);

  useEffect(() => {
    if (!open) return;
    setName(editing?.name ?? '');
    setKey(editing?.secretKey ?? '');
    setCurrent(editing?.current ?? false);
    setTouched(false);
    setServerError(null);
  }, [open, editing]);

  const problem = keyProblem(key);
  const nameMissing = !name.trim();
  const submit = async () => {
    setTouched(true);
    if (problem || nameMissing) return;
    setBusy(true);
    setServerError(null);
    try {
      const saved = editing
        ? await secretKeyApi.update(editing.id, { name: name.trim(), secretKey: key.trim(), ...(current !== editing.current ? { current } : {}) })
        : await secretKeyApi.add({ name: name.trim(), secretKey: key.trim(), current });
      onSaved(saved);
    } catch (e) {
      setServerError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <RecordDialog ns="secretkeys" open={open} editing={!!editing} saving={busy} onSave={submit} onClose={onClose} saveTestId="key-save">
      <Form layout="vertical">
        <Form.Item label={t('col.name')} required validateStatus={touched && nameMissing ? 'error' : undefined} help={touched && nameMissing ? t('errors.142') : undefined}>
          <Input value={name} maxLength={NAME_MAX} showCount onChange={(e) => setName(e.target.value)} data-testid="key-name" />
        </Form.Item>
        <Form.Item
          label={t('col.key')}
          required
          extra={t('dialog.keyRule', { n: KEY_LENGTH })}
          validateStatus={touched && problem ? 'error' : undefined}
          help={touched && problem ? <span data-testid="key-problem" data-problem={problem}>{t(`problem.${problem}`, { n: KEY_LENGTH })}</span> : undefined}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Input
              value={key}
              onChange={(e) => setKey(e.target.value)}
              onBlur={() => setTouched(true)}
              style={{ fontFamily: 'monospace' }}
              autoComplete="off"
              spellCheck={false}
              data-testid="key-value"
            />
            <Button icon={<ThunderboltOutlined />} onClick={() => setKey(generateKey())} data-testid="key-generate">
              {t('dialog.generate')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item label={t('dialog.current')} extra={t('dialog.currentHelp')}>
          <Switch checked={current} onChange={setCurrent} data-testid="key-current" />
        </Form.Item>
      </Form>
      {serverError != null && <Alert type="error" showIcon title={errorText(serverError)} data-testid="key-server-error" data-code={failureCode(serverError)} />}
    </RecordDialog>
  );
}
