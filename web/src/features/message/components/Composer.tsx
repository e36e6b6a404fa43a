import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Input, Space, Typography } from 'antd';
import { PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { useCodeText } from '../codes';
import { charCount, checkContent, contentToSend, FILES_LIMIT, MAX_CONTENT } from '../validation';
import type { FileInfo } from '../model';
import { UploadList } from './UploadList';
import { FileButton } from './FileButton';
import { addPicked, useUploads } from './useUploads';

export interface ComposerProps {
  /** Sends the text with the uploaded files; resolves true when everything was accepted (then the composer clears). */
  onSend: (content: string, files: FileInfo[]) => Promise<boolean>;
  disabled?: boolean;
  testid?: string;
}

/** The text box with attachments (uploaded at once, with a progress bar) and the send button. */
export function Composer({ onSend, disabled, testid = 'msg' }: ComposerProps) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const uploads = useUploads();

  const submit = async () => {
    if (uploads.busy) return setError('uploading');
    const files = uploads.files;
    const problem = checkContent(text, files.length > 0);
    if (problem) return setError(problem);
    setError(undefined);
    setSending(true);
    try {
      if (await onSend(contentToSend(text), files)) {
        setText('');
        uploads.clear();
      }
    } finally {
      setSending(false);
    }
  };

  const pick = (files: File[]) => addPicked(uploads, files, () => message.warning(t('filesLimit', { max: FILES_LIMIT })));

  const count = charCount(text);
  return (
    <div className="msg-composer" data-testid={`${testid}-composer`}>
      <UploadList items={uploads.items} onRemove={uploads.remove} testid={`${testid}-upload`} />
      <Input.TextArea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
        }}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('placeholder')}
        status={error ? 'error' : undefined}
        disabled={disabled}
        data-testid={`${testid}-input`}
        aria-label={t('placeholder')}
      />
      <div className="msg-composer-bar">
        <Space size={4} wrap>
          <Button type="primary" icon={<SendOutlined />} onClick={() => void submit()} loading={sending} disabled={disabled || uploads.busy} data-testid={`${testid}-send`}>
            {t('send')}
          </Button>
          <FileButton icon={<PaperClipOutlined />} label={t('attach')} multiple disabled={disabled} onPick={pick} testId={`${testid}-attach`} inputTestId={`${testid}-file-input`} />
          <Typography.Text type={count > MAX_CONTENT ? 'danger' : 'secondary'} className="msg-count">
            {count}/{MAX_CONTENT}
          </Typography.Text>
          {error && (
            <Typography.Text type="danger" data-testid={`${testid}-error`} data-code={error}>
              {error === 'uploading' ? t('waitUploads') : codeText(error)}
            </Typography.Text>
          )}
        </Space>
      </div>
    </div>
  );
}
