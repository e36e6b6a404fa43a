import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Badge, Button, Card, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckOutlined, EditOutlined, NotificationOutlined, SearchOutlined } from '@ant-design/icons';
import { isFeatureEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { useLiveStatus } from '../../../shared/socket/live';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { trimText } from '../../../shared/utils/text';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { messageApi, messageKeys } from '../api';
import { useCodeText } from '../codes';
import { conversationMessages, conversationOf, groupConversations, mergeLocal, parseConv, STORED_CODES, type ConvKey, type FileInfo } from '../model';
import { sendMessage } from '../send';
import { markConversationRead, markRead, me as myId, removeLocal, retainMessageSync, upsertMessages, useMessages } from '../store';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeToMs } from '../../../shared/time/range';
import { unreadCounts } from '../unread';
import { ChatView } from '../components/ChatView';
import { Composer } from '../components/Composer';
import { ConversationList, type ConversationView } from '../components/ConversationList';
import { MessageSenderDialog } from '../components/MessageSenderDialog';
import { RangeFilter, type WallRange } from '../../../shared/time/RangePicker';
import { ToneDrawer } from '../components/ToneDrawer';
import { filterChoice, useGroupChoices, useTerminalChoices } from '../../../shared/directory/choices';
import '../message.css';

const NO_EVENTS = {};

function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState === 'visible');
  useEffect(() => {
    const on = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return visible;
}

/** /message and /message-child: conversations with terminals and groups, live. */
export default function MessagePage() {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const { message } = App.useApp();
  const gate = useGateContext();
  const [params, setParams] = useSearchParams();
  useLiveDirectory();
  useEffect(() => retainMessageSync(), []);
  // New messages reach the page through the message store; a (re)login refetches the searched history.
  useLiveQueries(NO_EVENTS, messageKeys.find.all);

  const socket = useLiveStatus((s) => s.status);
  const terminals = useDirectory((s) => s.terminals);
  const groups = useDirectory((s) => s.groups);
  useDirectory((s) => s.presence);
  const messages = useMessages((s) => s.messages);
  const locals = useMessages((s) => s.locals);
  const unread = useMessages((s) => s.unread);
  const visible = usePageVisible();
  const terminalChoices = useTerminalChoices();
  const groupChoices = useGroupChoices();

  const [range, setRange] = useState<WallRange>(() => defaultWallRange());
  const [applied, setApplied] = useState<{ sTime: number; eTime: number; open: boolean }>(() => ({ ...rangeToMs(defaultWallRange()), open: true }));
  const [filter, setFilter] = useState('');
  const [opened, setOpened] = useState<ConvKey[]>([]);
  const [dialog, setDialog] = useState<'sender' | 'tones' | null>(null);

  const fromUrl: ConvKey | undefined = params.get('msId') ? `t:${params.get('msId')}` : params.get('gid') ? `g:${params.get('gid')}` : undefined;
  const [active, setActive] = useState<ConvKey | undefined>(fromUrl);
  useEffect(() => {
    if (fromUrl) {
      setActive(fromUrl);
      setOpened((o) => (o.includes(fromUrl) ? o : [...o, fromUrl]));
    }
  }, [fromUrl]);

  const select = useCallback(
    (k: ConvKey) => {
      setActive(k);
      if (params.size) setParams({}, { replace: true });
    },
    [params, setParams],
  );

  const rangeError = checkWallRange(range, MONTH_DAYS);
  const search = () => {
    if (rangeError || !range) return;
    const r = rangeToMs(range);
    // A range that reaches now stays open: new messages keep appearing.
    setApplied({ ...r, open: r.eTime >= Date.now() });
  };

  const { sTime, eTime, open } = applied;
  const upper = open ? Infinity : eTime;
  const me = myId();

  const listQ = useQuery({
    queryKey: messageKeys.find('all', sTime, eTime),
    queryFn: async () => {
      const r = await messageApi.findSms({ type: '0', stime: sTime, etime: eTime, pageSize: 1000 });
      upsertMessages(r.list);
      return r.total;
    },
  });
  const { kind: activeKind, id: activeId } = active ? parseConv(active) : { kind: undefined, id: '' };
  const convQ = useQuery({
    queryKey: messageKeys.find('conv', active, sTime, eTime),
    enabled: !!active,
    queryFn: async () => {
      const q = activeKind === 'group' ? { type: '2' as const, grpId: activeId } : { type: '1' as const, dstId: activeId };
      const r = await messageApi.findSms({ ...q, stime: sTime, etime: eTime, order: 'asc', pageSize: 1000 });
      upsertMessages(r.list);
      return r.total;
    },
  });
  useEffect(() => {
    const e = listQ.error ?? convQ.error;
    if (e) message.error(codeText((e as { code?: string }).code ?? 'failed'));
  }, [listQ.error, convQ.error]); // eslint-disable-line react-hooks/exhaustive-deps

  const counts = useMemo(() => unreadCounts(unread), [unread]);
  const nameOf = useCallback(
    (id: string, fallback?: string) => terminals[id]?.name || fallback || id,
    [terminals],
  );

  const conversations = useMemo<ConversationView[]>(() => {
    const inRange = Object.values(messages).filter((m) => m.time >= sTime && m.time <= upper);
    const extra = [
      ...opened.map((key) => ({ key })),
      ...Object.values(unread.byId).map((m) => ({ key: conversationOf(m), lastTime: m.time })),
      ...(active ? [{ key: active }] : []),
    ];
    const f = filter.trim().toLowerCase();
    return groupConversations(inRange, counts.byConv, extra)
      .map((c) => {
        const dir = c.kind === 'group' ? groups[c.id]?.name : terminals[c.id]?.name;
        return { ...c, title: dir || c.name || c.id, online: c.kind === 'terminal' ? terminals[c.id]?.online === '1' : undefined };
      })
      .filter((c) => !f || c.title.toLowerCase().includes(f) || c.id.includes(f));
  }, [messages, unread, counts, opened, active, filter, sTime, upper, groups, terminals]);

  const rows = useMemo(() => {
    if (!active) return [];
    const list = conversationMessages(Object.values(messages), active, sTime, upper);
    return mergeLocal(list, locals.filter((l) => l.conv === active), me);
  }, [messages, locals, active, sTime, upper, me]);

  // Reading a conversation marks its messages read (while the window is visible).
  const activeUnread = active ? (counts.byConv[active] ?? 0) : 0;
  useEffect(() => {
    if (!active || activeUnread === 0 || !visible) return;
    const timer = setTimeout(() => void markConversationRead(active).catch(() => {}), 300);
    return () => clearTimeout(timer);
  }, [active, activeUnread, visible]);

  const send = async (content: string, files: FileInfo[]) => {
    if (!active) return false;
    const target = activeKind === 'group' ? { gid: activeId } : { msId: activeId };
    const jobs: [string, FileInfo | undefined][] = files.length ? files.map((f, i) => [i === 0 ? content : '', f]) : [[content, undefined]];
    for (const [c, f] of jobs) {
      const r = await sendMessage(target, c, f);
      if (!r.ok) {
        if (STORED_CODES.has(r.code)) message.warning(`${codeText(r.code)} — ${t('state.keptHint')}`);
        else message.error(codeText(r.code));
      }
    }
    return true;
  };

  const retry = (localId: string) => {
    const l = useMessages.getState().locals.find((x) => x.localId === localId);
    if (!l) return;
    removeLocal(localId);
    const { kind, id } = parseConv(l.conv);
    void sendMessage(kind === 'group' ? { gid: id } : { msId: id }, l.content, l.file);
  };

  const openChoices = useMemo(
    () => [
      { label: t('groups'), options: groupChoices.map((g) => ({ value: `g:${g.value}`, label: g.label, search: g.search })) },
      { label: t('terminals'), options: terminalChoices.map((x) => ({ value: `t:${x.value}`, label: x.label, search: x.search })) },
    ],
    [groupChoices, terminalChoices, t],
  );

  const activeConv = conversations.find((c) => c.key === active);
  const activeTitle = active ? (activeConv?.title ?? (activeKind === 'group' ? groups[activeId]?.name : terminals[activeId]?.name) ?? activeId) : '';
  const canTones = isFeatureEnabled('sendTone', gate);

  return (
    <div className="msg-page" data-testid="message-page" data-socket={socket} data-unread={counts.total}>
      <Card
        size="small"
        className="msg-side"
        title={
          <Space>
            {t('title')}
            <Badge count={counts.total} size="small" data-testid="message-total-badge" />
          </Space>
        }
        extra={
          <Tooltip title={t('markAllRead')}>
            <Button size="small" type="text" icon={<CheckOutlined />} disabled={!counts.total} onClick={() => void markRead({ all: 1 }).catch(() => {})} data-testid="msg-read-all" aria-label={t('markAllRead')} />
          </Tooltip>
        }
      >
        <div className="msg-toolbar">
          <Button type="primary" icon={<EditOutlined />} onClick={() => setDialog('sender')} data-testid="msg-new">
            {t('newMessage')}
          </Button>
          {canTones && (
            <Button icon={<NotificationOutlined />} onClick={() => setDialog('tones')} data-testid="msg-tones">
              {t('tones.title')}
            </Button>
          )}
        </div>
        <Select
          showSearch
          value={null}
          placeholder={t('openConversation')}
          options={openChoices}
          filterOption={(input, option) => filterChoice(input, option as { search?: string })}
          onChange={(v: ConvKey) => {
            setOpened((o) => (o.includes(v) ? o : [...o, v]));
            select(v);
          }}
          data-testid="msg-open"
          style={{ width: '100%' }}
        />
        <Input.Search allowClear placeholder={t('filterConversations')} value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="msg-filter" />
        <ConversationList items={conversations} active={active} onSelect={select} />
      </Card>

      <Card
        size="small"
        className="msg-main"
        title={
          active ? (
            <span className="msg-head-title" data-testid="msg-chat-title" data-key={active}>
              {trimText(activeTitle, 32)} <Typography.Text type="secondary">({activeId})</Typography.Text>{' '}
              {activeKind === 'terminal' && (
                <Tag color={terminals[activeId]?.online === '1' ? 'green' : 'default'}>{terminals[activeId]?.online === '1' ? t('online') : t('offline')}</Tag>
              )}
              {activeKind === 'group' && <Tag>{t('group')}</Tag>}
            </span>
          ) : (
            t('title')
          )
        }
        extra={
          <Space align="start">
            <RangeFilter value={range} onChange={setRange} testid="msg-range" />
            <Button icon={<SearchOutlined />} onClick={search} disabled={!!rangeError} data-testid="msg-search">
              {t('search')}
            </Button>
          </Space>
        }
      >
        {active ? (
          <>
            <ChatView rows={rows} me={me} nameOf={nameOf} onRetry={retry} loading={convQ.isLoading} />
            <Composer onSend={send} />
          </>
        ) : (
          <Typography.Text type="secondary" className="msg-placeholder">
            {t('selectConversation')}
          </Typography.Text>
        )}
      </Card>

      {dialog === 'sender' && <MessageSenderDialog open onClose={() => setDialog(null)} />}
      {dialog === 'tones' && <ToneDrawer open onClose={() => setDialog(null)} />}
    </div>
  );
}
