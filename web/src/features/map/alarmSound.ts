// The fence alarm sound: a short two-tone beep at the alarm volume of the settings (spec §3 alarmVolume, default
// 60) unless alarm sounds are off.
import { playTones } from '../../shared/sound';

let lastPlayed = 0;
export let playedCount = 0;

export function playAlarm(volumePercent: number): void {
  const now = Date.now();
  if (now - lastPlayed < 800) return; // a burst of alarms rings once
  lastPlayed = now;
  if (!playTones({ hz: [880, 660, 880], wave: 'square', step: 0.22, length: 0.18, peak: 0.4 }, volumePercent)) return;
  playedCount++;
  document.documentElement.dataset.fenceAlarmSound = String(playedCount);
}
