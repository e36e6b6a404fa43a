// Short sounds made with WebAudio, so the console ships no sound file for them: one audio context per window.
// Browsers that block audio before a user gesture, or have no audio device, stay silent.
let ctx: AudioContext | undefined;

/** This window's audio context, resumed; undefined where there is no WebAudio. */
export function audioContext(): AudioContext | undefined {
  const AC = typeof window !== 'undefined' ? (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext) : undefined;
  if (!AC) return undefined;
  try {
    ctx ??= new AC();
  } catch {
    return undefined;
  }
  if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
  return ctx;
}

export interface Tones {
  /** The notes, in Hz, one after the other. */
  hz: number[];
  wave: OscillatorType;
  /** Seconds from one note's start to the next, and each note's length. */
  step: number;
  length: number;
  /** Loudness at volume 100 (0–1). */
  peak: number;
  /** Fade in and out over the whole sound instead of a flat level. */
  envelope?: boolean;
}

/**
 * The notice sounds one may choose (settings › Sounds › Notice sound): what rings for a notice such as a new
 * message. 'off' rings nothing.
 */
export const NOTICE_SOUNDS = {
  chime: { hz: [880, 1320], wave: 'sine', step: 0.12, length: 0.1, peak: 0.25, envelope: true },
  bell: { hz: [1568, 1175, 784], wave: 'triangle', step: 0.16, length: 0.3, peak: 0.3, envelope: true },
  beep: { hz: [1000, 1000], wave: 'square', step: 0.15, length: 0.08, peak: 0.12 },
} satisfies Record<string, Tones>;
export type NoticeSound = keyof typeof NOTICE_SOUNDS | 'off';
export const NOTICE_SOUND_CHOICES = [...(Object.keys(NOTICE_SOUNDS) as (keyof typeof NOTICE_SOUNDS)[]), 'off'] as const;

/** Plays the chosen notice sound at volume 0–100; false when it is off or no sound could be made. */
export function playNotice(choice: NoticeSound, volume: number): boolean {
  return choice !== 'off' && !!NOTICE_SOUNDS[choice] && playTones(NOTICE_SOUNDS[choice], volume);
}

/** Plays the notes at volume 0–100; false when no sound could be made. */
export function playTones(t: Tones, volume: number): boolean {
  try {
    const ac = audioContext();
    if (!ac) return false;
    const gain = ac.createGain();
    const level = Math.max(0, Math.min(1, volume / 100)) * t.peak;
    const t0 = ac.currentTime;
    if (t.envelope) {
      const end = t0 + (t.hz.length - 1) * t.step + t.length;
      gain.gain.setValueAtTime(0, t0);
      gain.gain.linearRampToValueAtTime(level, t0 + 0.02);
      gain.gain.linearRampToValueAtTime(0, end + 0.02);
    } else gain.gain.value = level;
    gain.connect(ac.destination);
    t.hz.forEach((hz, i) => {
      const osc = ac.createOscillator();
      osc.type = t.wave;
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(t0 + i * t.step);
      osc.stop(t0 + i * t.step + t.length);
    });
    return true;
  } catch {
    return false;
  }
}
