// The phone's video call screen: ringing (answer, decline), calling the desk, the call (the dispatcher's picture,
// this camera, switch camera, hang up) and how it ended.
import { useEffect, useRef } from 'react';
import { startRing } from '../../shared/voice/ring';
import { t, tCode } from '../i18n';
import { answer, callDesk, decline, hangUp, switchCamera, usePhoneVideo } from './video';
import VideoCameraOutlined from '@ant-design/icons-svg/es/asn/VideoCameraOutlined';
import { HeaderButton } from '../ui/HeaderButton';

export function VideoCallButton() {
  const busy = usePhoneVideo((s) => !!s.call && s.call.state !== 'ended');
  return (
    <HeaderButton icon={VideoCameraOutlined} label={t('video.callDesk')} onClick={() => void callDesk()} disabled={busy} testid="phone-video-call" />
  );
}

export function VideoCall() {
  const call = usePhoneVideo((s) => s.call);
  const remote = useRef<HTMLVideoElement>(null);
  const local = useRef<HTMLVideoElement>(null);
  const incoming = call?.state === 'incoming';
  useEffect(() => {
    if (!incoming) return;
    navigator.vibrate?.([400, 200, 400]);
    return startRing(70);
  }, [incoming]);
  useEffect(() => {
    if (remote.current && call?.peer && remote.current.srcObject !== call.peer.remote) remote.current.srcObject = call.peer.remote;
    if (local.current && call?.local && local.current.srcObject !== call.local) local.current.srcObject = call.local;
  });
  if (!call) return null;
  const ended = call.state === 'ended';
  return (
    <div className="p-video" data-testid="phone-video" data-call-id={call.callId} data-state={call.state} data-status={call.status}>
      <div className="p-video-title">
        {incoming ? t('video.incoming', { name: call.name }) : ended ? tCode('video.ended', String(call.status)) : t(`video.state.${call.state}`, { name: call.name })}
      </div>
      <div className="p-video-media">
        <video ref={remote} className="p-video-remote" autoPlay playsInline data-testid="phone-video-remote" />
        {call.local && <video ref={local} className="p-video-local" autoPlay playsInline muted data-testid="phone-video-local" />}
      </div>
      {call.localFailed && !ended && <div className="p-video-warn">{t('video.noCamera')}</div>}
      <div className="p-call-buttons">
        {incoming ? (
          <>
            <button className="p-primary" onClick={() => void answer()} data-testid="phone-video-answer">
              {t('call.answer')}
            </button>
            <button className="p-secondary p-danger" onClick={decline} data-testid="phone-video-decline">
              {t('call.decline')}
            </button>
          </>
        ) : (
          <>
            {!ended && call.peer && (
              <button className="p-secondary" onClick={() => void switchCamera()} data-testid="phone-video-switch">
                {t('video.switch')}
              </button>
            )}
            <button className={ended ? 'p-secondary' : 'p-secondary p-danger'} onClick={hangUp} data-testid="phone-video-hangup">
              {ended ? t('video.close') : t('call.hangUp')}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
