// Ties the alarm state to the sound, the desktop notification and the first-gesture unlock (one per window).
import { i18next } from '../../i18n';
import { useSettings } from '../../shared/settings';
import { AlarmSound, electSoundLeader, type SoundSnapshot } from './sound';
import { askNotificationPermission, desktopNotify } from '../../shared/notify';
import { isRinging, type ItemKey } from '../../shared/alarms/queue';
import { useAlarms } from '../../shared/alarms/store';
import { formatZoned } from '../../shared/time/zone';

export const sound = new AlarmSound();
let leader = false;

declare global {
  interface Window {
    /** What the console does, for tests and support (read only). */
    __tenfour?: { alarmSound?: () => SoundSnapshot };
  }
}

function notify(key: ItemKey) {
  if (!leader) return; // one window notifies
  const s = useAlarms.getState();
  const t = i18next.getFixedT(null, 'alarm');
  if (key.startsWith('sos:')) {
    const a = s.sos[key.slice(4)];
    if (!a) return;
    const type = t(`type.${a.type}`, { defaultValue: t('type.other', { type: a.type }) });
    desktopNotify(key, t('notify.sosTitle', { name: a.msName || a.msId }), t('notify.sosBody', { type, time: formatZoned(a.time, 'HH:mm:ss') }), true);
  } else {
    const a = s.lone[key.slice(3)];
    if (!a) return;
    const reason = i18next.t(`lonework:reason.${a.reason}`);
    desktopNotify(key, t('notify.loneTitle', { name: a.msName || a.msId }), t('notify.loneBody', { reason, time: formatZoned(a.alarmTime, 'HH:mm:ss') }), true);
  }
}

/** Starts the sound controller of this window; `main` windows are preferred as sound leader. */
export function startAlarmController(main: boolean): () => void {
  const settings = () => {
    const st = useSettings.getState();
    return { enabled: st.sounds?.alarm !== false, volume: st.alarmVolume ?? 60 };
  };
  // The clip decoded and, after the sign-in's gesture, the audio running before any alarm comes.
  sound.prepare();
  window.__tenfour = { ...window.__tenfour, alarmSound: () => sound.snapshot() };
  sound.update({ wanted: isRinging(useAlarms.getState()), ...settings() });
  const unElect = electSoundLeader(main, (l) => {
    leader = l;
    sound.update({ leader: l });
  });
  const unAlarms = useAlarms.subscribe((s, prev) => {
    sound.update({ wanted: isRinging(s) });
    if (s.alerts !== prev.alerts && s.lastAlert) notify(s.lastAlert);
  });
  const unSettings = useSettings.subscribe(() => sound.update(settings()));
  const onGesture = () => {
    sound.unlock();
    askNotificationPermission();
  };
  window.addEventListener('pointerdown', onGesture, true);
  window.addEventListener('keydown', onGesture, true);
  return () => {
    unElect();
    unAlarms();
    unSettings();
    window.removeEventListener('pointerdown', onGesture, true);
    window.removeEventListener('keydown', onGesture, true);
    sound.update({ wanted: false });
  };
}
