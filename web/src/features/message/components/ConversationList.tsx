import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Empty, Typography } from 'antd';
import { TeamOutlined, UserOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import type { Conversation, ConvKey } from '../model';
import { formatTime } from '../../../shared/time/zone';

export interface ConversationView extends Conversation {
  /** The directory's name when known. */
  title: string;
  online?: boolean;
}

function preview(c: ConversationView, t: (k: string) => string): string {
  const m = c.last;
  if (!m) return '';
  const text = m.content || t(`kinds.${m.type === 'text' ? 'file' : m.type}`);
  return m.incoming ? text : `${t('you')}: ${text}`;
}

const Row = memo(function Row({ c, active, onSelect }: { c: ConversationView; active: boolean; onSelect: (k: ConvKey) => void }) {
  const { t } = useTranslation('message');
  return (
    <li
      className={`msg-conv${active ? ' msg-conv-active' : ''}`}
      data-testid="conv-item"
      data-key={c.key}
      data-unread={c.unreads}
      onClick={() => onSelect(c.key)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(c.key)}
      tabIndex={0}
      role="option"
      aria-selected={active}
    >
      <span className={`msg-conv-icon${c.online ? ' msg-online' : ''}`}>{c.kind === 'group' ? <TeamOutlined /> : <UserOutlined />}</span>
      <span className="msg-conv-main">
        <span className="msg-conv-top">
          <span className="msg-conv-name" title={`${c.title} (${c.id})`}>
            {trimText(c.title, 22)}
          </span>
          <Typography.Text type="secondary" className="msg-conv-time">
            {c.lastTime ? formatTime(c.lastTime, 'MM-DD HH:mm') : ''}
          </Typography.Text>
        </span>
        <span className="msg-conv-bottom">
          <Typography.Text type="secondary" className="msg-conv-preview">
            {trimText(preview(c, t).replace(/\s+/g, ' '), 30)}
          </Typography.Text>
          <Badge count={c.unreads} size="small" data-testid="conv-badge" />
        </span>
      </span>
    </li>
  );
});

export function ConversationList({ items, active, onSelect }: { items: ConversationView[]; active?: ConvKey; onSelect: (k: ConvKey) => void }) {
  const { t } = useTranslation('message');
  if (!items.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noConversations')} />;
  return (
    <ul className="msg-conv-list" data-testid="conv-list" role="listbox" aria-label={t('conversations')}>
      {items.map((c) => (
        <Row key={c.key} c={c} active={c.key === active} onSelect={onSelect} />
      ))}
    </ul>
  );
}
