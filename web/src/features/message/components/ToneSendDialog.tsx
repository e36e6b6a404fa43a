import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Form, Modal, Select, type ButtonProps } from 'antd';
import { errorCode, sendTone, type Tone, type ToneSendReply } from '../api';
import { useCodeText } from '../codes';
import { checkTargets } from '../validation';
import { filterChoice, useDirectoryLoaded, useGroupChoices, useTerminalChoices } from '../../../shared/directory/choices';

/** Sends a tone to terminals and/or a group (socket tone.send); the terminals play it now. */
export function ToneSendDialog({ tone, onClose }: { tone: Tone; onClose: () => void }) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  useDirectoryLoaded();
  const groupChoices = useGroupChoices();
  const terminalChoices = useTerminalChoices();
  const [gid, setGid] = useState<string>();
  const [msIds, setMsIds] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<ToneSendReply>();
  const [sending, setSending] = useState(false);

  const send = async () => {
    const te = checkTargets(gid ? [gid] : [], msIds);
    if (te) return setError(`target:${te}`);
    setError(undefined);
    setResult(undefined);
    setSending(true);
    try {
      setResult(await sendTone(tone.id, msIds, gid));
    } catch (e) {
      setError(errorCode(e));
    } finally {
      setSending(false);
    }
  };

  const nameOf = (id: string) => terminalChoices.find((x) => x.value === id)?.label ?? id;

  return (
    <Modal
      open
      title={t('tones.sendTitle', { name: tone.name })}
      onCancel={onClose}
      onOk={() => void send()}
      okText={t('send')}
      cancelText={t('close')}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'tone-send-ok' } as ButtonProps}
      destroyOnHidden
      data-testid="tone-send-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('group')}>
          <Select allowClear showSearch value={gid} onChange={setGid} options={groupChoices} filterOption={filterChoice} data-testid="tone-send-group" placeholder={t('sender.groupsPlaceholder')} />
        </Form.Item>
        <Form.Item label={t('terminals')}>
          <Select
            mode="multiple"
            allowClear
            value={msIds}
            onChange={setMsIds}
            options={terminalChoices}
            filterOption={filterChoice}
            data-testid="tone-send-terminals"
            placeholder={t('sender.terminalsPlaceholder')}
            maxTagCount="responsive"
          />
        </Form.Item>
      </Form>
      {error && (
        <Alert type="error" showIcon data-testid="tone-send-error" data-code={error} message={error.startsWith('target:') ? t('sender.noTarget') : codeText(error)} />
      )}
      {result && (
        <Alert
          type={result.failed?.length ? 'warning' : 'success'}
          showIcon
          data-testid="tone-send-result"
          data-delivered={result.delivered}
          data-recipients={result.recipients}
          message={t('tones.sent', { delivered: result.delivered, recipients: result.recipients })}
          description={result.failed?.length ? t('tones.notPlayed', { list: result.failed.map(nameOf).join(', ') }) : undefined}
        />
      )}
    </Modal>
  );
}
