import { useEffect } from 'react';
import { startRing } from '../../shared/voice/ring';
import { useVoice } from '../../shared/voice/store';
import { t } from '../i18n';
import { useSession } from '../session/store';

/** An individual call ringing here, the individual call this phone is in, or another call it was joined to. */
export function Calls() {
  const invites = useVoice((s) => s.invites);
  const calls = useVoice((s) => s.calls);
  const joined = useVoice((s) => s.joined);
  const uid = useSession((s) => s.uid);
  const engine = useSession((s) => s.link?.engine);
  const single = Object.values(calls).find((c) => c.kind === 'single' && c.state !== 'ended');
  const other = joined.find((j) => calls[j.callId]);
  const inv = invites[0];
  const ringing = inv?.callId;
  useEffect(() => {
    if (!ringing) return;
    navigator.vibrate?.([400, 200, 400]);
    return startRing(70);
  }, [ringing]);
  if (inv)
    return (
      <div className="p-call p-call-in" data-testid="phone-incoming" data-call-id={inv.callId}>
        <div>{t('call.incoming', { name: inv.from.name || inv.from.msId })}</div>
        <div className="p-call-buttons">
          <button className="p-primary" onClick={() => void engine?.answer(inv.callId)} data-testid="phone-answer">
            {t('call.answer')}
          </button>
          <button className="p-secondary p-danger" onClick={() => void engine?.decline(inv.callId)} data-testid="phone-decline">
            {t('call.decline')}
          </button>
        </div>
      </div>
    );
  if (single) {
    const peer = single.parties?.find((p) => p.msId !== uid) ?? single.initiator;
    return (
      <div className="p-call" data-testid="phone-call" data-call-id={single.callId} data-state={single.state}>
        <div>{single.state === 'connected' ? t('call.with', { name: peer?.name || peer?.msId || '' }) : t('call.ringing')}</div>
        <button className="p-secondary p-danger" onClick={() => void engine?.hangUp(single.callId).catch(() => {})} data-testid="phone-hangup">
          {t('call.hangUp')}
        </button>
      </div>
    );
  }
  if (other) {
    return (
      <div className="p-call" data-testid="phone-joined" data-call-id={other.callId} data-kind={other.kind}>
        <div>{t('call.joined', { kind: t(`kind.${other.kind}`), name: other.from.name || other.from.msId })}</div>
        {other.kind !== 'all' && other.kind !== 'broadcast' && (
          <button className="p-secondary" onClick={() => void engine?.byeMyself(other.callId).catch(() => {})}>
            {t('call.leave')}
          </button>
        )}
      </div>
    );
  }
  return null;
}
