import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Badge, Button, Popconfirm, Space, Tag, Tooltip } from 'antd';
import {
  CloseOutlined,
  EyeOutlined,
  LeftOutlined,
  NotificationOutlined,
  PhoneOutlined,
  RightOutlined,
  SoundOutlined,
  StopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { isFeatureEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { fmtDuration, fmtUs, type CallView, type FloorView } from '../../../shared/voice/protocol';
import { useVoice } from '../../../shared/voice/store';
import { IncomingCallPrompt } from '../../../shared/incoming/IncomingCallPrompt';
import { useSession } from '../../../shared/session';
import { useSettings } from '../../../shared/settings';
import { useDirectory } from '../../../shared/directory/store';
import { consoleVoice, startConsoleVoice } from '../../../shared/voice/console';
import { accountName, callTitle, groupName, useVoiceRun } from '../hooks';
import { useNow } from '../../../shared/utils/useNow';
import { MissedCallsDrawer } from './MissedCallsDrawer';
import { PttButton } from './PttButton';
import { PttKeys } from './PttKeys';
import { Dialpad } from './Dialpad';
import '../../../shared/voice/voice.css';

/** The calls to the whole fleet a dispatcher starts from the dock (each behind its feature switch and a
 * confirmation) and ends while it is the initiator; their texts are <feature>.start/confirm/started/end. */
const FLEET_CALLS = [
  { kind: 'all', feature: 'allCall', icon: TeamOutlined, testId: 'all-call' },
  { kind: 'broadcast', feature: 'broadcast', icon: NotificationOutlined, testId: 'broadcast-call' },
] as const;

const DOCK_KEY = 'tenfour.voice.dock';

interface Row {
  callId: string;
  call?: CallView;
  floor?: FloorView;
}

/**
 * The console's voice dock: PTT, who is heard, the talk target, open calls with their talkers, monitoring, call
 * buttons. It is a column of the shell's layout beside the screen (never over it); collapsed it narrows to the PTT
 * button and the talker readout.
 */
export default function VoiceDock() {
  const { t } = useTranslation('voice');
  const { message } = App.useApp();
  const gate = useGateContext();
  const me = useSession((s) => s.session?.userInfo.msId);
  const pttGroup = useSession((s) => s.session?.userInfo.pttGroup);
  const defaultName = useSession((s) => s.session?.userInfo.gName);
  const calls = useVoice((s) => s.calls);
  const floors = useVoice((s) => s.floors);
  const playing = useVoice((s) => s.playing);
  const stats = useVoice((s) => s.stats);
  const lineMuted = useVoice((s) => s.lineMuted);
  const target = useVoice((s) => s.target);
  const monitor = useVoice((s) => s.monitor);
  const invites = useVoice((s) => s.invites);
  const missed = useVoice((s) => s.missed);
  const ptt = useVoice((s) => s.ptt);
  const bursts = useVoice((s) => s.bursts);
  const rtc = useVoice((s) => s.rtc);
  const mic = useVoice((s) => s.mic);
  const ended = useVoice((s) => s.ended);
  useDirectory((s) => s.structure); // names of groups and terminals
  const [open, setOpenState] = useState(() => localStorage.getItem(DOCK_KEY) !== '0');
  const setOpen = (v: boolean) => {
    setOpenState(v);
    try {
      localStorage.setItem(DOCK_KEY, v ? '1' : '0');
    } catch {
      /* private mode */
    }
  };
  const [missedOpen, setMissedOpen] = useState(false);
  const [seenMissed, setSeenMissed] = useState(0);
  const engine = consoleVoice();

  useEffect(() => startConsoleVoice(), []);

  // An individual call waiting for an answer rings at the notice volume unless call tones are off (settings).
  const callTone = useSettings((s) => s.sounds.callTone);
  const noticeVolume = useSettings((s) => s.noticeVolume);

  useEffect(() => {
    if (!ended || Date.now() - ended.at > 2000) return;
    const c = ended.call;
    if (c.kind === 'single' && c.status !== 200) message.info(t('ended.single', { status: t(`status.${c.status}`, { defaultValue: String(c.status) }), name: callTitle(t, c, me) }));
  }, [ended]); // eslint-disable-line react-hooks/exhaustive-deps

  const rows = useMemo<Row[]>(() => {
    // Open calls, and group calls within their hang time (their floor is known until call.state ended).
    const ids = new Set([...Object.keys(calls), ...Object.keys(floors)]);
    return [...ids]
      .map((callId) => ({ callId, call: calls[callId], floor: floors[callId] ?? calls[callId]?.floor }))
      .sort((a, b) => Number(!!b.floor?.talker) - Number(!!a.floor?.talker) || (b.call?.started ?? b.floor?.since ?? 0) - (a.call?.started ?? a.floor?.since ?? 0));
  }, [calls, floors]);

  const anyTalking = rows.some((r) => r.floor?.talker);
  const now = useNow(500, anyTalking);

  const canMissed = isFeatureEnabled('missedCalls', gate);

  const run = useVoiceRun();

  const targetLabel = target?.callId
    ? callTitle(t, calls[target.callId] ?? floors[target.callId] ?? { callId: target.callId }, me)
    : target?.gid
      ? groupName(target.gid)
      : t('target.default', { name: groupName(pttGroup) || defaultName || '—' });

  // Who is heard now (or, if nobody plays for this console, who talks anywhere): shown in both dock states.
  const heard = rows.find((r) => r.callId === playing?.callId && r.floor?.talker) ?? rows.find((r) => r.floor?.talker);
  const heardTalker = heard?.floor?.talker;
  const heardName = heardTalker ? heardTalker.name || accountName(heardTalker.msId) : '';
  const heardWhere = heard ? callTitle(t, { ...heard.floor, ...heard.call, callId: heard.callId }, me) : '';

  const unseen = Math.max(0, missed.length - seenMissed);
  const lastOwn = ptt.accessMs != null ? { client: ptt.accessMs, server: ptt.serverAccessUs } : undefined;
  const ownBurst = bursts.find((b) => b.msId === me);

  return (
    <aside className={`vdock${open ? '' : ' vdock-closed'}`} data-testid="voice-dock" data-rtc={rtc} data-open={open ? '1' : '0'}>
      <PttKeys engine={consoleVoice} />
      <div className="vdock-head">
        <span className={`vdock-dot vdock-dot-${rtc}`} data-testid="voice-rtc" data-state={rtc} title={t(`rtc.${rtc}`)} />
        <span className="vdock-title">{t('title')}</span>
        {mic === 'denied' && <Tag color="red">{t('micDenied')}</Tag>}
        <Button size="small" type="text" icon={open ? <RightOutlined /> : <LeftOutlined />} onClick={() => setOpen(!open)} aria-label={t(open ? 'collapse' : 'expand')} title={t(open ? 'collapse' : 'expand')} data-testid="voice-dock-toggle" />
      </div>
      <div className={`vdock-talker${heardTalker ? ' vdock-talker-on' : ''}`} data-testid="voice-talker" data-ms-id={heardTalker?.msId ?? ''} title={heardTalker ? `${heardName} · ${heardWhere}` : undefined}>
        <SoundOutlined className="vdock-talker-icon" />
        {heardTalker ? (
          <span className="vdock-talker-text">
            <strong>{heardName}</strong>
            <span className="vdock-muted">{heardWhere}</span>
          </span>
        ) : (
          <span className="vdock-muted vdock-talker-text">{t('calls.idle')}</span>
        )}
      </div>
      {!open && (
        <div className="vdock-body">
          <PttButton engine={engine} compact />
        </div>
      )}
      {open && (
        <div className="vdock-body">
          <div className="vdock-target" data-testid="ptt-target">
            <span className="vdock-muted">{t('target.label')}</span> <strong>{targetLabel}</strong>
            {target && <Button size="small" type="text" icon={<CloseOutlined />} onClick={() => engine.setTarget(undefined)} aria-label={t('target.reset')} />}
          </div>
          <PttButton engine={engine} />
          {lastOwn && (
            <div className="vdock-muted vdock-access" data-testid="ptt-access" data-ms={lastOwn.client.toFixed(1)}>
              {t('access.own', { client: `${lastOwn.client.toFixed(0)} ms`, server: fmtUs(lastOwn.server) })}
              {ownBurst && (
                <span data-testid="own-burst-stats" data-access-us={ownBurst.pressToGrantUs} data-first-us={ownBurst.grantToFirstUs} data-delay-us={ownBurst.delayP99Us}>
                  {' · '}
                  {t('access.delay', { first: fmtUs(ownBurst.grantToFirstUs), delay: fmtUs(ownBurst.delayP99Us) })}
                </span>
              )}
            </div>
          )}
          <Space wrap size={4} className="vdock-buttons">
            {FLEET_CALLS.filter((f) => isFeatureEnabled(f.feature, gate)).map((f) => {
              const own = Object.values(calls).find((c) => c.kind === f.kind && c.initiator?.msId === me);
              return own ? (
                <Button key={f.kind} size="small" danger icon={<StopOutlined />} onClick={() => run(() => engine.bye(own.callId))} data-testid={`end-${f.testId}`}>
                  {t(`${f.feature}.end`)}
                </Button>
              ) : (
                <Popconfirm key={f.kind} title={t(`${f.feature}.confirm`)} onConfirm={() => run(() => engine.invite(f.kind), `${f.feature}.started`)}>
                  <Button size="small" icon={<f.icon />} data-testid={f.testId}>
                    {t(`${f.feature}.start`)}
                  </Button>
                </Popconfirm>
              );
            })}
            {canMissed && (
              <Badge count={unseen} size="small">
                <Button
                  size="small"
                  icon={<PhoneOutlined />}
                  onClick={() => {
                    setSeenMissed(missed.length);
                    setMissedOpen(true);
                  }}
                  data-testid="missed-calls"
                >
                  {t('missed.button')}
                </Button>
              </Badge>
            )}
          </Space>
          <Dialpad />

          <div className="vdock-calls" data-testid="call-panel">
            {rows.length === 0 && <div className="vdock-muted vdock-empty">{t('calls.none')}</div>}
            {rows.map(({ callId, call, floor }) => {
              const kind = call?.kind ?? floor?.kind ?? 'group';
              const talker = floor?.talker;
              const isPlaying = playing?.callId === callId;
              const last = stats[callId];
              const own = call?.initiator?.msId === me;
              const pending = call && call.kind === 'single' && call.state !== 'connected';
              const line = call?.duplex && call.state === 'connected'; // a phone call: both sides talk throughout
              return (
                <div
                  key={callId}
                  className={`vcall${talker ? ' vcall-talking' : ''}${isPlaying ? ' vcall-playing' : ''}${floor?.emergency ? ' vcall-emergency' : ''}`}
                  data-testid="call-row"
                  data-call-id={callId}
                  data-kind={kind}
                  data-state={call?.state ?? 'open'}
                  data-talker={talker?.msId ?? ''}
                  data-playing={isPlaying ? '1' : '0'}
                >
                  <div className="vcall-line">
                    <Tag className="vcall-kind">{t(`kind.${kind}`)}</Tag>
                    <span className="vcall-name" title={callId}>
                      {callTitle(t, { ...floor, ...call, callId }, me)}
                    </span>
                    {isPlaying && (
                      <Tooltip title={t('calls.playing')}>
                        <SoundOutlined className="vcall-speaker" />
                      </Tooltip>
                    )}
                    <span className="vcall-actions">
                      {talker && !isPlaying && (
                        <Button size="small" type="link" onClick={() => run(() => engine.focus(callId))} data-testid="switch-to">
                          {t('calls.switchTo')}
                        </Button>
                      )}
                      {isPlaying && playing && playing.callId === callId && (
                        <Button size="small" type="link" onClick={() => run(() => engine.focus(''))}>
                          {t('calls.unfocus')}
                        </Button>
                      )}
                      {line && (
                        <Button size="small" type="link" onClick={() => engine.setLineMuted(!lineMuted)} data-testid="line-mute" data-muted={lineMuted ? '1' : '0'}>
                          {lineMuted ? t('calls.unmute') : t('calls.mute')}
                        </Button>
                      )}
                      {!line && target?.callId !== callId && (kind !== 'single' || call?.state === 'connected') && (
                        <Button
                          size="small"
                          type="link"
                          onClick={() => engine.setTarget(kind === 'group' && (call?.gid ?? floor?.gid) ? { gid: call?.gid ?? floor?.gid } : { callId })}
                          data-testid="talk-here"
                        >
                          {t('calls.talkHere')}
                        </Button>
                      )}
                      {call && (own || call.kind === 'single') && (
                        <Button size="small" type="link" danger onClick={() => run(() => engine.hangUp(callId))} data-testid="hang-up">
                          {pending && own ? t('calls.cancel') : t('calls.hangUp')}
                        </Button>
                      )}
                    </span>
                  </div>
                  <div className="vcall-line vcall-sub">
                    {pending ? (
                      <span data-testid="call-progress">{t(`state.${call!.state}`)}</span>
                    ) : line ? (
                      <span data-testid="open-line">{lineMuted ? t('calls.lineMuted') : t('calls.openLine')}</span>
                    ) : talker ? (
                      <span className="vcall-talker" data-testid="talker">
                        {floor?.emergency && <Tag color="red">SOS</Tag>}
                        {floor?.talker && floor.notRecorded && (
                          <Tag color="orange" data-testid="not-recorded" data-reason={floor.notRecorded}>
                            {t(`notRecorded.${floor.notRecorded}`)}
                          </Tag>
                        )}
                        {t('calls.talks', { name: talker.name || accountName(talker.msId), time: fmtDuration(now - (floor?.since ?? now)) })}
                      </span>
                    ) : (
                      <span className="vdock-muted">{t('calls.idle')}</span>
                    )}
                    {last && (
                      <span className="vcall-stats" data-testid="burst-stats" data-ms-id={last.msId} data-packets={last.packets} data-access-us={last.pressToGrantUs} data-delay-us={last.delayP99Us}>
                        {t('access.burst', { access: fmtUs(last.pressToGrantUs), first: fmtUs(last.grantToFirstUs), delay: fmtUs(last.delayP99Us) })}
                      </span>
                    )}
                  </div>
                </div>
              );
            })}
          </div>

          {(monitor.groups.length > 0 || monitor.terminal) && (
            <div className="vdock-monitor" data-testid="monitor-list">
              <div className="vdock-muted">
                <EyeOutlined /> {t('monitor.title')}
              </div>
              {monitor.groups.map((gid) => (
                <Tag key={gid} closable onClose={(e) => (e.preventDefault(), void run(() => engine.monitorStop({ gid })))} data-testid="monitor-group" data-gid={gid}>
                  {groupName(gid)}
                </Tag>
              ))}
              {monitor.terminal && (
                <Tag color="purple" closable onClose={(e) => (e.preventDefault(), void run(() => engine.monitorStop({ msId: monitor.terminal })))} data-testid="monitor-terminal" data-ms-id={monitor.terminal}>
                  {accountName(monitor.terminal)}
                </Tag>
              )}
            </div>
          )}
        </div>
      )}
      <IncomingCallPrompt
        title={t('incoming.title')}
        ids={{ dialog: 'incoming-call', row: 'incoming-call-row', answer: 'answer-call', decline: 'decline-call' }}
        tag="call"
        tone={callTone ? noticeVolume : undefined}
        rows={invites.map((inv) => ({
          id: inv.callId,
          text: t('incoming.from', { name: inv.from.name || accountName(inv.from.msId) }),
          answer: { label: t('incoming.answer'), onClick: () => void run(() => engine.answer(inv.callId)) },
          decline: { label: t('incoming.decline'), onClick: () => void run(() => engine.decline(inv.callId)) },
        }))}
      />
      {canMissed && <MissedCallsDrawer open={missedOpen} onClose={() => setMissedOpen(false)} />}
    </aside>
  );
}
