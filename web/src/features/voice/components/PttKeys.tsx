import { useEffect, useState } from 'react';
import { bindPttKey, isTypingTarget, onFirstGesture } from '../../../shared/voice/keys';
import { useVoice } from '../../../shared/voice/store';
import type { VoiceEngine } from '../../../shared/voice/engine';
import { useSettings } from '../../../shared/settings';
import { useSession } from '../../../shared/session';

/**
 * The quick keys of this window (settings: PTT, hang up, mute). The PTT key is released on keyup wherever the
 * focus is, and when the window loses focus or is hidden. Audio is unlocked on the first gesture. The hidden marker
 * says when the keys are bound: a child window loads this lazily, after its screen shows.
 */
export function PttKeys({ engine }: { engine: () => VoiceEngine }) {
  const [bound, setBound] = useState(false);
  useEffect(() => {
    const unbind = bindPttKey(window, {
      code: () => useSettings.getState().quickKeys.ptt || 'Space',
      onDown: () => engine().press(),
      onUp: () => engine().release(),
    });
    const offGesture = onFirstGesture(window, () => engine().unlock());
    const onKey = (e: KeyboardEvent) => {
      if (e.repeat || e.ctrlKey || e.altKey || e.metaKey || isTypingTarget(e.target, e.code)) return;
      const keys = useSettings.getState().quickKeys;
      if (keys.mute && e.code === keys.mute) {
        const s = useSettings.getState();
        s.update({ muteStatus: !s.muteStatus });
      } else if (keys.hangup && e.code === keys.hangup) {
        const me = useSession.getState().session?.userInfo.msId;
        const own = Object.values(useVoice.getState().calls).find((c) => c.initiator?.msId === me || (c.kind === 'single' && c.parties?.some((p) => p.msId === me)));
        if (own && !document.querySelector('.ant-modal-wrap:not([style*="display: none"])')) void engine().hangUp(own.callId).catch(() => {});
      }
    };
    window.addEventListener('keydown', onKey);
    setBound(true);
    return () => {
      unbind();
      offGesture();
      window.removeEventListener('keydown', onKey);
    };
  }, [engine]);
  return <span hidden data-testid="ptt-keys" data-bound={bound ? '1' : '0'} />;
}
