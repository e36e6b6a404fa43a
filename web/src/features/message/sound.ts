// An incoming message rings the notice sound the settings chose (settings › Sounds: "Message" on, "Notice sound"
// which one, or off), at the notice volume.
import { playNotice } from '../../shared/sound';
import { useSettings } from '../../shared/settings';

export function playMessageSound(volume = 60): void {
  playNotice(useSettings.getState().noticeSound, volume);
}
