import { useMemo, useState } from 'react';
import { language, t } from '../i18n';
import { Sheet } from '../ui/Sheet';
import { markRead, sendMessage, unreadCount, useInbox } from './inbox';
import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import { HeaderButton } from '../ui/HeaderButton';

/** The header's mail button with the unread count; opening the inbox reads everything. */
export function InboxButton({ onOpen }: { onOpen: () => void }) {
  const unread = useInbox((s) => unreadCount(s.messages));
  return (
    <HeaderButton
      icon={MailOutlined}
      label={t('messages.title')}
      onClick={() => {
        onOpen();
        markRead();
      }}
      testid="phone-inbox-button"
      count={unread}
      countTestid="phone-unread"
    />
  );
}

export function Inbox({ onClose }: { onClose: () => void }) {
  const inbox = useInbox((s) => s.messages);
  const [text, setText] = useState('');
  const lang = language();
  const fmt = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }), [lang]);
  return (
    <Sheet title={t('messages.title')} onClose={onClose} testid="phone-inbox">
      <form
        className="p-compose"
        onSubmit={(e) => {
          e.preventDefault();
          void sendMessage(text).then((ok) => ok && setText(''));
        }}
      >
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('messages.reply')} maxLength={1000} data-testid="phone-compose" />
        <button className="p-primary" type="submit" disabled={!text.trim()}>
          {t('messages.send')}
        </button>
      </form>
      {inbox.length === 0 && <p className="p-muted">{t('messages.empty')}</p>}
      {inbox.map((m) => (
        <div key={m.id} className={`p-msg${m.mine ? ' p-msg-mine' : ''}`} data-testid="phone-message" data-id={m.id}>
          <div className="p-msg-head">
            <strong>{m.mine ? t('messages.me') : m.fromName || m.from}</strong>
            {m.gid && <span className="p-muted p-small">· {t('messages.group')}</span>}
            <span className="p-muted p-small">{fmt.format(m.time)}</span>
          </div>
          <div className="p-msg-body">{m.content}</div>
          {m.file?.url && (
            <a href={m.file.url} target="_blank" rel="noreferrer">
              {m.file.name || t('messages.file')}
            </a>
          )}
        </div>
      ))}
    </Sheet>
  );
}
