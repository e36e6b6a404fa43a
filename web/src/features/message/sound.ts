// A short two-note chime for an incoming message (settings "sounds → message"), made with Web Audio so the
// console ships no sound file. Browsers that block audio before a user gesture just stay silent.
let ctx: AudioContext | undefined;

export function playMessageSound(volume = 60): void {
  try {
    const AC = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    ctx ??= new AC();
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const peak = Math.max(0, Math.min(1, volume / 100)) * 0.25;
    const t0 = ctx.currentTime;
    [880, 1320].forEach((f, i) => {
      const osc = ctx!.createOscillator();
      osc.type = 'sine';
      osc.frequency.value = f;
      osc.connect(gain);
      osc.start(t0 + i * 0.12);
      osc.stop(t0 + i * 0.12 + 0.1);
    });
    gain.gain.setValueAtTime(0, t0);
    gain.gain.linearRampToValueAtTime(peak, t0 + 0.02);
    gain.gain.linearRampToValueAtTime(0, t0 + 0.24);
  } catch {
    /* no audio */
  }
}
