import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Tag, Tooltip, Typography } from 'antd';
import { CheckOutlined, ClockCircleOutlined, CloseCircleOutlined, LoadingOutlined, RedoOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { useCodeText } from '../codes';
import { senderOf, shownState, type ChatRow, type ShownState } from '../model';
import { formatTime } from '../../../shared/time/zone';
import { Attachment } from './Attachment';

const STATE_COLOR: Record<ShownState, string> = { sending: 'processing', failed: 'error', pending: 'warning', partial: 'gold', delivered: 'success' };
const STATE_ICON: Record<ShownState, ReactNode> = {
  sending: <LoadingOutlined />,
  failed: <CloseCircleOutlined />,
  pending: <ClockCircleOutlined />,
  partial: <ClockCircleOutlined />,
  delivered: <CheckOutlined />,
};

function StateTag({ row }: { row: ChatRow }) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const state = shownState(row);
  if (!state) return null;
  const code = row.kind === 'local' ? row.local.code : row.code;
  const m = row.kind === 'message' ? row.message : undefined;
  const label =
    state === 'partial' ? t('state.partial', { delivered: m?.delivered ?? 0, recipients: m?.recipients ?? 0 }) : t(`state.${state}`);
  const reason = code ? codeText(code) : '';
  const hint = state === 'pending' || (state === 'failed' && row.kind === 'message') ? t('state.keptHint') : '';
  return (
    <Tooltip title={[reason, hint].filter(Boolean).join(' — ') || undefined}>
      <Tag color={STATE_COLOR[state]} icon={STATE_ICON[state]} className="msg-state" data-testid="msg-state" data-state={state} data-code={code ?? ''}>
        {label}
        {reason && state !== 'sending' ? `: ${reason}` : ''}
      </Tag>
    </Tooltip>
  );
}

export interface ChatViewProps {
  rows: ChatRow[];
  me: string;
  /** Names of terminals and dispatchers by id (the directory's). */
  nameOf: (id: string, fallback?: string) => string;
  onRetry: (localId: string) => void;
  loading?: boolean;
}

/** The messages of one conversation, oldest first, following the newest. */
export function ChatView({ rows, me, nameOf, onRetry, loading }: ChatViewProps) {
  const { t } = useTranslation('message');
  const end = useRef<HTMLDivElement>(null);
  const last = rows.at(-1);
  const lastKey = last ? (last.kind === 'local' ? last.local.localId : last.message.id) : '';

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [lastKey, rows.length]);

  if (!rows.length) return <Empty className="msg-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={loading ? t('loading') : t('noMessages')} />;

  return (
    <div className="msg-list" data-testid="msg-list" aria-live="polite">
      {rows.map((row) => {
        if (row.kind === 'local') {
          const l = row.local;
          return (
            <div key={l.localId} className="msg-row msg-out" data-testid="msg-row" data-direction="out" data-local="1" data-state={shownState(row)}>
              <div className="msg-bubble">
                <div className="msg-meta">
                  <span>{t('you')}</span>
                  <span>{formatTime(l.sentAt, 'YYYY-MM-DD HH:mm:ss')}</span>
                </div>
                {l.content && <div className="msg-text">{l.content}</div>}
                {l.file && <Attachment file={l.file} />}
                <div className="msg-foot">
                  <StateTag row={row} />
                  {l.done && (
                    <Button size="small" type="link" icon={<RedoOutlined />} onClick={() => onRetry(l.localId)} data-testid="msg-retry">
                      {t('retry')}
                    </Button>
                  )}
                </div>
              </div>
            </div>
          );
        }
        const m = row.message;
        const out = !m.incoming;
        const sender = senderOf(m);
        const who = out ? (sender === me ? t('you') : nameOf(sender, m.fromName)) : nameOf(sender, m.fromName);
        const foot = out ? (
          <StateTag row={row} />
        ) : m.status === 0 ? (
          <Tag color="blue">{t('unread')}</Tag>
        ) : m.readBy && m.readBy !== me ? (
          <Typography.Text type="secondary" className="msg-readby">
            {t('readBy', { name: nameOf(m.readBy) })}
          </Typography.Text>
        ) : null;
        return (
          <div
            key={m.id}
            className={`msg-row ${out ? 'msg-out' : 'msg-in'}`}
            data-testid="msg-row"
            data-id={m.id}
            data-direction={out ? 'out' : 'in'}
            data-state={out ? shownState(row) : m.status === 0 ? 'unread' : 'read'}
          >
            <div className="msg-bubble">
              <div className="msg-meta">
                <span title={sender}>{trimText(who, 24)}</span>
                <span>{formatTime(m.time, 'YYYY-MM-DD HH:mm:ss')}</span>
              </div>
              {m.content && <div className="msg-text">{m.content}</div>}
              {m.file && <Attachment file={m.file} />}
              {foot && <div className="msg-foot">{foot}</div>}
            </div>
          </div>
        );
      })}
      <div ref={end} />
    </div>
  );
}
