import { useEffect } from 'react';
import { bindPttKey } from '../../shared/voice/keys';
import { fmtDuration } from '../../shared/voice/protocol';
import { useVoice } from '../../shared/voice/store';
import { t } from '../i18n';
import { useSession } from '../session/store';
import { useTick } from '../ui/useTick';
import { pttLabel, shownError, shownFloor } from './floor';
import { canTalk, press, release, usePtt } from './ptt';

/** Keys that talk while held (keyboards, many Bluetooth PTT buttons). */
const HOLD_KEYS = ['Space', 'F8'];
/** Headset buttons send a key press without a usable release: press once to talk, once to stop. */
const TOGGLE_KEYS = ['MediaPlayPause', 'HeadsetHook'];

/** Who talks: this phone (with the time it has talked), someone else (and where), or nobody. */
export function TalkArea() {
  const ptt = useVoice((s) => s.ptt);
  const floors = useVoice((s) => s.floors);
  const playing = useVoice((s) => s.playing);
  const pttGroup = usePtt((s) => s.pttGroup);
  const floor = shownFloor(floors, playing, pttGroup);
  const now = useTick(ptt.phase === 'talking' || !!floor, 500);
  const uid = useSession((s) => s.uid);
  let main: string;
  let sub = '';
  let cls = '';
  if (ptt.phase === 'talking') {
    main = t('talk.you');
    sub = fmtDuration(performance.now() - (ptt.grantAt ?? performance.now()));
    cls = 'p-talk-me';
  } else if (floor?.talker && floor.talker.msId !== uid) {
    main = t('talk.someone', { name: floor.talker.name || floor.talker.msId });
    sub = `${fmtDuration(now - (floor.since ?? now))}${floor.gName ? ' · ' + t('talk.in', { name: floor.gName }) : ''}`;
    cls = floor.emergency ? 'p-talk-sos' : 'p-talk-other';
  } else {
    main = t('talk.idle');
  }
  return (
    <div className={`p-talk ${cls}`} data-testid="phone-talker" data-talker={floor?.talker?.msId ?? ''}>
      <div className="p-talk-main">{main}</div>
      <div className="p-talk-sub">{sub}</div>
    </div>
  );
}

/** The PTT button (held to talk) and the PTT keys. */
export function PttPad() {
  const ptt = useVoice((s) => s.ptt);
  const rtc = useVoice((s) => s.rtc);
  const disabled = !canTalk(usePtt((s) => s.callSet));
  useTick(!!ptt.error, 1000);
  const error = shownError(ptt, performance.now());

  useEffect(() => bindPttKey(window, { code: () => HOLD_KEYS, toggleCodes: () => TOGGLE_KEYS, onDown: press, onUp: release }), []);

  return (
    <div className="p-ptt-wrap">
      <button
        className={`p-ptt p-ptt-${ptt.phase}${error ? ' p-ptt-error' : ''}`}
        disabled={disabled}
        data-testid="phone-ptt"
        data-phase={ptt.phase}
        data-error={error}
        data-rtc={rtc}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.currentTarget.setPointerCapture?.(e.pointerId);
          navigator.vibrate?.(30);
          press();
        }}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onContextMenu={(e) => e.preventDefault()}
        aria-label={t('ptt.hold')}
      >
        <svg viewBox="0 0 24 24" width="54" height="54" aria-hidden>
          <path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2Z" />
        </svg>
        <span>{pttLabel(ptt, rtc, disabled, error)}</span>
      </button>
    </div>
  );
}

/** Killed or stunned by the dispatcher (spec §4). */
export function Blocked() {
  const callSet = usePtt((s) => s.callSet);
  if (canTalk(callSet)) return null;
  return (
    <div className="p-banner p-banner-bad" data-testid="phone-blocked">
      {t(`blocked.${callSet === 0 ? 0 : 1}`)}
    </div>
  );
}
