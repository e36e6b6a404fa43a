// A short two-note chime for an incoming message (settings "sounds → message").
import { playTones } from '../../shared/sound';

export function playMessageSound(volume = 60): void {
  playTones({ hz: [880, 1320], wave: 'sine', step: 0.12, length: 0.1, peak: 0.25, envelope: true }, volume);
}
