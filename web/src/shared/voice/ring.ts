// A ring tone made with WebAudio (no sound file to ship): two-tone bursts of 1 s every 3 s until stopped.

import { audioContext } from '../sound';

/** Starts ringing at volume 0–100; returns the function that stops it. */
export function startRing(volume = 60): () => void {
  const ac = audioContext();
  if (!ac) return () => {};
  const gain = ac.createGain();
  gain.gain.value = 0;
  gain.connect(ac.destination);
  const oscs = [440, 480].map((f) => {
    const o = ac.createOscillator();
    o.frequency.value = f;
    o.connect(gain);
    o.start();
    return o;
  });
  const level = (Math.max(0, Math.min(100, volume)) / 100) * 0.15;
  const burst = () => {
    const t = ac.currentTime;
    gain.gain.cancelScheduledValues(t);
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(level, t + 0.02);
    gain.gain.setValueAtTime(level, t + 1);
    gain.gain.linearRampToValueAtTime(0, t + 1.02);
  };
  burst();
  const timer = setInterval(burst, 3000);
  return () => {
    clearInterval(timer);
    gain.gain.cancelScheduledValues(ac.currentTime);
    gain.gain.value = 0;
    oscs.forEach((o) => {
      try {
        o.stop();
      } catch {
        /* stopped */
      }
      o.disconnect();
    });
    gain.disconnect();
  };
}
