// The fence alarm sound: a short two-tone beep made with WebAudio (no asset to load), at the alarm volume of the
// settings (spec §3 alarmVolume, default 60) unless alarm sounds are off.
let ctx: AudioContext | undefined;
let lastPlayed = 0;
export let playedCount = 0;

export function playAlarm(volumePercent: number): void {
  const now = Date.now();
  if (now - lastPlayed < 800) return; // a burst of alarms rings once
  lastPlayed = now;
  try {
    ctx ??= new AudioContext();
    void ctx.resume();
    const gain = ctx.createGain();
    gain.gain.value = Math.max(0, Math.min(1, volumePercent / 100)) * 0.4;
    gain.connect(ctx.destination);
    [880, 660, 880].forEach((hz, i) => {
      const osc = ctx!.createOscillator();
      osc.type = 'square';
      osc.frequency.value = hz;
      osc.connect(gain);
      const t = ctx!.currentTime + i * 0.22;
      osc.start(t);
      osc.stop(t + 0.18);
    });
    playedCount++;
    document.documentElement.dataset.fenceAlarmSound = String(playedCount);
  } catch {
    /* no audio device: the notification still shows */
  }
}

/** A desktop notification when the user allowed them; the in-page notice is shown regardless. */
export function desktopNotify(title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag: `fence-${title}-${body}` });
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}
