import { useTranslation } from 'react-i18next';
import { AudioOutlined, LoadingOutlined } from '@ant-design/icons';
import { fmtDuration } from '../../../shared/voice/protocol';
import type { VoiceEngine } from '../../../shared/voice/engine';
import { useVoice } from '../../../shared/voice/store';
import { useSettings } from '../../../shared/settings';
import { useNow } from '../../../shared/utils/useNow';

/** A human name for a KeyboardEvent.code ("Space", "F8", "KeyT" → "T"). */
export function keyLabel(code: string): string {
  return code.replace(/^Key/, '').replace(/^Digit/, '');
}

const ERROR_SHOWN_MS = 4000;

/** The press-and-hold talk button. Pointer capture keeps the release with the button wherever the pointer goes. */
export function PttButton({ engine, compact }: { engine: VoiceEngine; compact?: boolean }) {
  const { t } = useTranslation('voice');
  const ptt = useVoice((s) => s.ptt);
  const rtc = useVoice((s) => s.rtc);
  const key = useSettings((s) => s.quickKeys.ptt);
  const now = useNow(200, ptt.phase === 'talking' || !!ptt.error);
  const perfNow = typeof performance !== 'undefined' ? performance.now() : 0;
  const showError = ptt.phase === 'idle' && ptt.error && perfNow - ptt.error.at < ERROR_SHOWN_MS;
  void now;

  let label: string;
  switch (ptt.phase) {
    case 'requesting':
      label = t('ptt.requesting');
      break;
    case 'talking':
      label = t('ptt.talking', { time: fmtDuration(perfNow - (ptt.grantAt ?? perfNow)) });
      break;
    case 'queued':
      label = t('ptt.queued', { position: ptt.position ?? '?' });
      break;
    default:
      label = showError ? t(`floorError.${ptt.error!.code}`, { defaultValue: t('floorError.other', { code: ptt.error!.code }) }) : rtc === 'connected' ? t('ptt.hold', { key: keyLabel(key) }) : t(`rtc.${rtc}`);
  }

  return (
    <button
      type="button"
      className={`vptt vptt-${ptt.phase}${showError ? ' vptt-error' : ''}${compact ? ' vptt-compact' : ''}`}
      data-testid="ptt-button"
      data-phase={ptt.phase}
      data-error={showError ? ptt.error!.code : undefined}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        engine.press();
      }}
      onPointerUp={() => engine.release()}
      onPointerCancel={() => engine.release()}
      onLostPointerCapture={() => engine.release()}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => e.key === ' ' && e.preventDefault()}
      aria-label={t('ptt.aria')}
      aria-pressed={ptt.phase === 'talking'}
    >
      <span className="vptt-icon">{ptt.phase === 'requesting' ? <LoadingOutlined /> : <AudioOutlined />}</span>
      <span className="vptt-label">{label}</span>
    </button>
  );
}
