// The video call window (docs/video.md): one panel per video call or monitored terminal with its state (spec §4:
// connecting, awaiting response, connected, declined, canceled, busy, disconnected, timed out), the remote picture,
// this console's camera, the resolution asked of the terminal (spec §9) and hang-up; and the calls ringing here.
// The panels stand left of the voice dock, never over push-to-talk, and close themselves once their call has ended
// (issue 32 item 4); a call ringing here is the same prompt as an individual call's (item 5).
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Select, Space, Tag } from 'antd';
import { CloseOutlined, PhoneOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useSettings } from '../../../shared/settings';
import { RESOLUTIONS, type ResolutionName } from '../../../shared/video/media';
import {
  answerVideo,
  declineVideo,
  hangUpVideo,
  setVideoResolution,
  startConsoleVideo,
  uiState,
  useVideo,
  type VideoSession,
} from '../../../shared/video/store';
import { IncomingCallPrompt } from '../../../shared/incoming/IncomingCallPrompt';
import { useTick } from '../useTick';
import '../videocall.css';

const STATE_COLOR: Record<string, string> = {
  connecting: 'blue',
  awaiting: 'gold',
  connected: 'green',
  declined: 'red',
  canceled: 'default',
  busy: 'orange',
  disconnected: 'default',
  timedOut: 'orange',
};

/** How long an ended session still shows why it ended (declined, busy, no response…) before its panel closes. */
export const ENDED_CLOSE_MS = 3000;
/** A refused start shows its reason longer: nothing else tells the dispatcher why the picture never came. */
export const REFUSED_CLOSE_MS = 8000;
/** The gap between the panels and the voice dock (or the window's edge where there is no dock). */
const GAP = 16;

/** The distance from the window's right edge that keeps the panels clear of the voice dock, open or collapsed. */
function useDockInset(active: boolean): number {
  const [inset, setInset] = useState(GAP);
  useLayoutEffect(() => {
    if (!active) return;
    const dock = document.querySelector('[data-testid=voice-dock]');
    const measure = () => setInset(dock ? Math.max(GAP, window.innerWidth - dock.getBoundingClientRect().left + GAP) : GAP);
    measure();
    const ro = typeof ResizeObserver === 'undefined' || !dock ? undefined : new ResizeObserver(measure);
    if (dock) ro?.observe(dock);
    window.addEventListener('resize', measure);
    return () => {
      ro?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [active]);
  return inset;
}

export default function VideoCallWindow() {
  const { t } = useTranslation('videocall');
  useEffect(() => startConsoleVideo(), []);
  const sessions = useVideo((s) => s.sessions);
  const invites = useVideo((s) => s.invites);
  const volume = useSettings((s) => s.videoCallVolume);
  const list = Object.values(sessions).filter((s) => !s.tile); // surveillance tiles show their own
  const right = useDockInset(list.length > 0);
  return (
    <>
      <IncomingCallPrompt
        title={t('incomingTitle')}
        ids={{ dialog: 'videocall-incoming-dialog', row: 'videocall-incoming', answer: 'videocall-answer', decline: 'videocall-decline' }}
        rows={invites.map((inv) => ({
          id: inv.callId,
          text: t('incoming', { name: inv.from.name || inv.from.msId }),
          answer: { label: t('answer'), icon: <VideoCameraOutlined />, onClick: () => void answerVideo(inv.callId) },
          decline: { label: t('decline'), onClick: () => declineVideo(inv.callId) },
        }))}
        tag="video"
        tone={volume}
      />
      {list.length > 0 && (
        <div className="vc-stack" style={{ right }} data-testid="videocall-window">
          {list.map((s) => (
            <SessionPanel key={s.view.callId} s={s} />
          ))}
        </div>
      )}
    </>
  );
}

function SessionPanel({ s }: { s: VideoSession }) {
  const { t } = useTranslation('videocall');
  const volume = useSettings((x) => x.videoCallVolume);
  const remote = useRef<HTMLVideoElement>(null);
  const local = useRef<HTMLVideoElement>(null);
  const ui = uiState(s.view);
  const ended = s.view.state === 'ended';
  useTick(ui === 'connected' ? 1000 : 0);
  const [frames, setFrames] = useState(0);
  useEffect(() => {
    if (remote.current && s.media && remote.current.srcObject !== s.media.remote) remote.current.srcObject = s.media.remote;
  });
  useEffect(() => {
    if (local.current && s.local && local.current.srcObject !== s.local) local.current.srcObject = s.local;
  });
  useEffect(() => {
    if (remote.current) remote.current.volume = Math.min(1, Math.max(0, volume / 100));
  }, [volume]);
  useEffect(() => {
    if (!s.media || ended) return;
    const id = setInterval(() => void s.media?.framesDecoded().then(setFrames), 1000);
    return () => clearInterval(id);
  }, [s.media, ended]);
  // An ended session closes itself (a refused one a little later): no black "Disconnected" box lingers.
  useEffect(() => {
    if (!ended) return;
    const timer = setTimeout(() => hangUpVideo(s.view.callId), s.refused ? REFUSED_CLOSE_MS : ENDED_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [ended, s.view.callId, s.refused]);
  const since = s.view.connected ? Math.max(0, Math.floor((Date.now() - s.view.connected) / 1000)) : 0;
  const code = s.refused ?? (ended ? String(s.view.status) : '');
  return (
    <Card
      size="small"
      className="vc-panel"
      data-testid="videocall-session"
      data-call-id={s.view.callId}
      data-kind={s.view.kind}
      data-state={ui}
      data-status={s.view.status}
      data-frames={frames}
      title={
        <Space>
          {s.view.kind === 'monitor' ? <VideoCameraOutlined /> : <PhoneOutlined />}
          <span>{t(s.view.kind === 'monitor' ? 'monitoring' : 'callWith', { name: s.peerName || s.peerId })}</span>
          <Tag color={STATE_COLOR[ui]} data-testid="videocall-state">
            {t(`state.${ui}`)}
          </Tag>
          {ui === 'connected' && <span className="vc-time">{fmt(since)}</span>}
        </Space>
      }
      extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={() => hangUpVideo(s.view.callId)} aria-label={t('close')} />}
    >
      <div className="vc-media">
        <video ref={remote} className="vc-remote" autoPlay playsInline data-testid="videocall-remote" />
        {s.local && s.local.getVideoTracks().length > 0 && <video ref={local} className="vc-local" autoPlay playsInline muted data-testid="videocall-local" />}
      </div>
      {s.localFailed && !ended && (
        <div className="vc-warn" data-testid="videocall-local-failed">
          {t('status.800')}
        </div>
      )}
      {code && code !== '200' && (
        <div className="vc-warn" data-testid="videocall-code" data-code={code}>
          {t(`status.${code}`, { defaultValue: t('status.other', { code }) })}
        </div>
      )}
      <Space wrap style={{ marginTop: 8 }}>
        {!ended && (
          <Select
            size="small"
            value={s.view.resolution as ResolutionName}
            style={{ width: 110 }}
            aria-label={t('resolution')}
            onChange={(v) => setVideoResolution(s.view.callId, v)}
            options={RESOLUTIONS.map((r) => ({ value: r.name, label: r.name }))}
            data-testid="videocall-resolution"
          />
        )}
        <Button danger={!ended} size="small" onClick={() => hangUpVideo(s.view.callId)} data-testid="videocall-hangup">
          {ended ? t('close') : s.view.kind === 'monitor' ? t('stop') : ui === 'connected' || s.view.state === 'media' ? t('hangUp') : t('cancel')}
        </Button>
      </Space>
    </Card>
  );
}

function fmt(s: number) {
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}
