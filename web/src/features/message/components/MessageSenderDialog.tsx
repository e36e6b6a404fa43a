import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Form, Input, List, Modal, Select, Tag, Typography } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useCodeText } from '../codes';
import { STORED_CODES, type FileInfo } from '../model';
import { sendMessage } from '../send';
import { retainMessageSync } from '../store';
import { charCount, checkContent, checkTargets, contentToSend, FILES_LIMIT, MAX_CONTENT, OTHERS_GROUP, sendTargets, type Target } from '../validation';
import { filterChoice, useDirectoryLoaded, useGroupChoices, useTerminalChoices } from '../../../shared/directory/choices';
import { FileButton } from './FileButton';
import { UploadList } from './UploadList';
import { addPicked, useUploads } from './useUploads';

interface Result {
  key: string;
  label: string;
  state: 'sending' | 'delivered' | 'partial' | 'pending' | 'failed';
  code?: string;
  delivered?: number;
  recipients?: number;
}

export interface MessageSenderDialogProps {
  open: boolean;
  onClose: () => void;
  initialGroups?: string[];
  initialTerminals?: string[];
}

/** One list of targets (groups or terminals), searched by name. */
function TargetSelect({ testId, ...props }: { value: string[]; onChange: (v: string[]) => void; options: { value: string; label: string; search: string }[]; placeholder: string; testId: string }) {
  return <Select mode="multiple" allowClear filterOption={filterChoice} maxTagCount="responsive" data-testid={testId} {...props} />;
}

/** The message sender (spec §2): one message to several groups and terminals, one sms.send per target. */
export function MessageSenderDialog({ open, onClose, initialGroups = [], initialTerminals = [] }: MessageSenderDialogProps) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const { message } = App.useApp();
  useDirectoryLoaded();
  useEffect(() => retainMessageSync(), []);
  const groupChoices = useGroupChoices();
  const terminalChoices = useTerminalChoices();
  const [groups, setGroups] = useState<string[]>(initialGroups);
  const [terminals, setTerminals] = useState<string[]>(initialTerminals);
  const [text, setText] = useState('');
  const [targetError, setTargetError] = useState<string>();
  const [contentError, setContentError] = useState<string>();
  const [results, setResults] = useState<Result[]>([]);
  const [sending, setSending] = useState(false);
  const uploads = useUploads();

  const labelOf = (t: Target) =>
    'gid' in t ? (groupChoices.find((g) => g.value === t.gid)?.label ?? t.gid) : (terminalChoices.find((x) => x.value === t.msId)?.label ?? t.msId);

  const submit = async () => {
    const te = checkTargets(groups, terminals);
    const ce = uploads.busy ? 'uploading' : checkContent(text, uploads.files.length > 0);
    setTargetError(te);
    setContentError(ce);
    if (te || ce) return;
    const targets = sendTargets(groups, terminals);
    const content = contentToSend(text);
    const files: (FileInfo | undefined)[] = uploads.files.length ? uploads.files : [undefined];
    const initial: Result[] = targets.map((x) => ({ key: 'gid' in x ? `g:${x.gid}` : `t:${x.msId}`, label: labelOf(x), state: 'sending' }));
    setResults(initial);
    setSending(true);
    const set = (key: string, p: Partial<Result>) => setResults((rs) => rs.map((r) => (r.key === key ? { ...r, ...p } : r)));
    await Promise.all(
      targets.map(async (target, i) => {
        let last: Partial<Result> = {};
        for (const [j, f] of files.entries()) {
          const r = await sendMessage(target, j === 0 ? content : '', f);
          if (r.ok) last = { state: r.reply.state === 'delivered' ? 'delivered' : r.reply.state, delivered: r.reply.delivered, recipients: r.reply.recipients };
          else last = { state: STORED_CODES.has(r.code) && r.code !== '16' ? 'pending' : 'failed', code: r.code };
          if (!r.ok && !STORED_CODES.has(r.code)) break;
        }
        set(initial[i]!.key, last);
      }),
    );
    setSending(false);
    message.success(t('sender.done'));
  };

  const pick = (files: File[]) => addPicked(uploads, files, () => message.warning(t('filesLimit', { max: FILES_LIMIT })));

  /** A change of either target list clears the "no target" problem. */
  const chooseTargets = (set: (v: string[]) => void) => (v: string[]) => {
    set(v);
    setTargetError(undefined);
  };
  const groupOptions = [{ value: OTHERS_GROUP, label: t('sender.others'), search: t('sender.others').toLowerCase() }, ...groupChoices];

  return (
    <Modal
      open={open}
      title={t('sender.title')}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
        <Button key="send" type="primary" loading={sending} disabled={uploads.busy} onClick={() => void submit()} data-testid="sender-send">
          {t('send')}
        </Button>,
      ]}
    >
      <Form layout="vertical" data-testid="msg-sender">
        <Form.Item label={t('groups')} validateStatus={targetError ? 'error' : undefined} help={targetError ? t(`sender.${targetError}`) : undefined}>
          <TargetSelect value={groups} onChange={chooseTargets(setGroups)} options={groupOptions} placeholder={t('sender.groupsPlaceholder')} testId="sender-groups" />
        </Form.Item>
        <Form.Item label={t('terminals')}>
          <TargetSelect value={terminals} onChange={chooseTargets(setTerminals)} options={terminalChoices} placeholder={t('sender.terminalsPlaceholder')} testId="sender-terminals" />
        </Form.Item>
        <Form.Item
          label={t('content')}
          validateStatus={contentError ? 'error' : undefined}
          help={contentError ? (contentError === 'uploading' ? t('waitUploads') : codeText(contentError)) : undefined}
        >
          <Input.TextArea
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setContentError(undefined);
            }}
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t('placeholder')}
            data-testid="sender-content"
          />
          <Typography.Text type={charCount(text) > MAX_CONTENT ? 'danger' : 'secondary'} className="msg-count">
            {charCount(text)}/{MAX_CONTENT}
          </Typography.Text>
        </Form.Item>
        <FileButton icon={<PaperClipOutlined />} label={t('attach')} multiple onPick={pick} testId="sender-attach" inputTestId="sender-file-input" />
        <UploadList items={uploads.items} onRemove={uploads.remove} testid="sender-upload" />
      </Form>
      {results.length > 0 && (
        <List
          className="msg-results"
          size="small"
          header={t('sender.results')}
          dataSource={results}
          data-testid="sender-results"
          renderItem={(r) => (
            <List.Item data-testid="sender-result" data-key={r.key} data-state={r.state} data-code={r.code ?? ''}>
              <span>{r.label}</span>
              <Tag color={r.state === 'delivered' ? 'success' : r.state === 'failed' ? 'error' : r.state === 'sending' ? 'processing' : 'warning'}>
                {r.state === 'partial' ? t('state.partial', { delivered: r.delivered ?? 0, recipients: r.recipients ?? 0 }) : t(`state.${r.state}`)}
                {r.code ? `: ${codeText(r.code)}` : ''}
              </Tag>
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
