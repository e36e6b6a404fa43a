import { useRef, useState } from 'react';
import { t } from '../i18n';
import { useTick } from '../ui/useTick';
import { checkIn, overdue, secondsLeft, useLoneWork } from './lonework';
import { cancelSos, raiseSos, SOS_HOLD_MS, sosMessage, useSos } from './sos';

/** Held for two seconds it raises the alarm; while one is raised it cancels it. */
export function SosButton() {
  const state = useSos((s) => s.state);
  const [holding, setHolding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const stop = () => {
    clearTimeout(timer.current);
    setHolding(false);
  };
  if (state !== 'idle')
    return (
      <button className="p-sos p-sos-cancel" onClick={() => void cancelSos()} data-testid="phone-sos-cancel">
        {t('sos.cancel')}
      </button>
    );
  return (
    <button
      className={`p-sos${holding ? ' p-sos-holding' : ''}`}
      style={{ ['--sos-ms' as string]: `${SOS_HOLD_MS}ms` }}
      data-testid="phone-sos"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        setHolding(true);
        navigator.vibrate?.(50);
        timer.current = setTimeout(() => {
          setHolding(false);
          void raiseSos();
        }, SOS_HOLD_MS);
      }}
      onPointerUp={stop}
      onPointerCancel={stop}
      onLostPointerCapture={stop}
      onContextMenu={(e) => e.preventDefault()}
    >
      <strong>SOS</strong>
      <span className="p-small">{holding ? t('sos.holding') : t('sos.hold')}</span>
    </button>
  );
}

export function SosBanner() {
  const sos = useSos();
  if (sos.state === 'idle') return null;
  const [key, vars] = sosMessage(sos);
  return (
    <div className={`p-banner ${sos.state === 'acked' ? 'p-banner-ok' : 'p-banner-sos'}`} data-testid="phone-sos-state" data-state={sos.state} data-id={sos.id ?? ''}>
      {t(key, vars)}
    </div>
  );
}

export function LoneWork() {
  const check = useLoneWork((s) => s.check);
  const now = useTick(!!check, 250);
  if (!check) return null;
  const late = overdue(check, now);
  return (
    <div className={`p-call p-call-in${late ? ' p-call-late' : ''}`} data-testid="phone-lonework" data-overdue={late ? '1' : '0'}>
      <div>
        <strong>{t('lonework.title')}</strong> — {late ? t('lonework.overdue') : t('lonework.prompt', { seconds: secondsLeft(check, now) })}
      </div>
      <button className="p-primary" onClick={() => void checkIn()} data-testid="phone-checkin">
        {t('lonework.fine')}
      </button>
    </div>
  );
}
