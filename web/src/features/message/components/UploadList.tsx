import { useTranslation } from 'react-i18next';
import { Button, Progress, Typography } from 'antd';
import { CloseOutlined, PaperClipOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { useCodeText } from '../codes';
import { formatSize } from '../validation';
import type { UploadItem } from './useUploads';

/** Attached files with their upload progress bars. */
export function UploadList({ items, onRemove, testid = 'upload' }: { items: UploadItem[]; onRemove?: (uid: string) => void; testid?: string }) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  if (!items.length) return null;
  return (
    <div className="msg-uploads" data-testid={`${testid}-list`}>
      {items.map((x) => (
        <div key={x.uid} className="msg-upload" data-testid={`${testid}-item`} data-status={x.status} data-percent={x.percent} data-code={x.code ?? ''}>
          <PaperClipOutlined />
          <span className="msg-upload-name" title={x.name}>
            {trimText(x.name, 28)} <Typography.Text type="secondary">{formatSize(x.size)}</Typography.Text>
          </span>
          <Progress
            className="msg-upload-bar"
            data-testid={`${testid}-progress`}
            percent={x.percent}
            size="small"
            status={x.status === 'error' ? 'exception' : x.status === 'done' ? 'success' : 'active'}
            aria-label={t('upload.progress', { name: x.name })}
          />
          {x.status === 'error' && (
            <Typography.Text type="danger" className="msg-upload-error" data-testid={`${testid}-error`}>
              {codeText(x.code ?? 'failed')}
            </Typography.Text>
          )}
          {onRemove && <Button type="text" size="small" icon={<CloseOutlined />} onClick={() => onRemove(x.uid)} aria-label={t('upload.remove')} />}
        </div>
      ))}
    </div>
  );
}
