import { useTranslation } from 'react-i18next';
import { Image } from 'antd';
import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import type { FileInfo } from '../model';
import { downloadUrl, formatSize } from '../../../shared/utils/files';

/** A message's attachment: images and media play inline, other files download. */
export function Attachment({ file }: { file: FileInfo }) {
  const { t } = useTranslation('message');
  const kind = file.kind;
  return (
    <div className="msg-attachment" data-testid="msg-attachment" data-kind={kind}>
      {kind === 'image' && <Image src={file.url} alt={file.name} width={180} className="msg-image" />}
      {kind === 'video' && <video src={file.url} controls preload="metadata" className="msg-video" />}
      {kind === 'audio' && <audio src={file.url} controls preload="metadata" className="msg-audio" />}
      <a href={downloadUrl(file.url)} download={file.name} className="msg-file-link" title={t('download')}>
        {kind === 'file' ? <FileOutlined /> : <DownloadOutlined />} {trimText(file.name || file.id, 32)} <span className="msg-file-size">{formatSize(file.size)}</span>
      </a>
    </div>
  );
}
