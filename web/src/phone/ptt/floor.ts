// What the talk area and the PTT button say, from the voice engine's state.
import type { RtcStatus } from '../../shared/voice/media';
import type { FloorView, VoicePlaying } from '../../shared/voice/protocol';
import type { PttSnapshot } from '../../shared/voice/ptt';
import { t, tCode } from '../i18n';

/** A refusal is shown on the button for 4 s. */
export const PTT_ERROR_MS = 4000;

/** The floor to show: what this phone plays now, else its talk group's, else a call's that is not a group's. */
export function shownFloor(floors: Record<string, FloorView>, playing: VoicePlaying | null, pttGroup: string): FloorView | undefined {
  if (playing?.callId && floors[playing.callId]?.talker) return floors[playing.callId];
  const all = Object.values(floors);
  return all.find((f) => f.talker && f.gid === pttGroup) ?? all.find((f) => f.talker && f.kind !== 'group');
}

/** The refusal to show on an idle button (at `perfNow`, the performance clock the engine stamps it with). */
export function shownError(ptt: PttSnapshot, perfNow: number): string | undefined {
  return ptt.phase === 'idle' && ptt.error && perfNow - ptt.error.at < PTT_ERROR_MS ? ptt.error.code : undefined;
}

/** The PTT button's label. */
export function pttLabel(ptt: PttSnapshot, rtc: RtcStatus, blocked: boolean, error: string | undefined): string {
  if (blocked) return t('ptt.blocked');
  if (ptt.phase === 'requesting') return t('ptt.requesting');
  if (ptt.phase === 'talking') return t('ptt.talking');
  if (ptt.phase === 'queued') return t('ptt.queued', { position: ptt.position ?? '?' });
  if (error) return tCode('floorError', error);
  if (rtc !== 'connected') return t('ptt.noVoice');
  return t('ptt.hold');
}
