import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { initI18n } from '../../../i18n';
import { useSettings } from '../../../shared/settings';
import { NOTICE_SOUNDS, playNotice } from '../../../shared/sound';
import { SettingsDialog } from './SettingsDialog';

// "Notice sound" (settings › Sounds) chooses what a notice rings: the chosen sound is the one played, off is silent.
// A fake WebAudio records the notes each sound starts.
let played: number[][] = [];

class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  private notes: number[] = [];
  /** One sound: one gain, then one oscillator per note. */
  createGain() {
    played.push((this.notes = []));
    return { gain: { value: 0, setValueAtTime() {}, linearRampToValueAtTime() {} }, connect() {} };
  }
  createOscillator() {
    const notes = this.notes;
    const osc = { type: 'sine', frequency: { value: 0 }, connect() {}, start: () => notes.push(osc.frequency.value), stop() {} };
    return osc;
  }
  resume() {
    return Promise.resolve();
  }
}

beforeAll(async () => {
  await initI18n('en-US');
  (window as unknown as { AudioContext: unknown }).AudioContext = FakeAudioContext;
});
beforeEach(() => {
  played = [];
  useSettings.getState().update({ noticeSound: 'chime', noticeVolume: 60 });
});
afterEach(cleanup);

/** Plays one notice as a new message does (features/message/sound.ts): the setting's sound at the notice volume. */
function ringNotice(): number[] | undefined {
  const before = played.length;
  const s = useSettings.getState();
  playNotice(s.noticeSound, s.noticeVolume);
  return played.length > before ? played.at(-1) : undefined;
}

describe('the notice sound setting', () => {
  it('rings the chosen sound, a different one for each choice, and nothing when off', () => {
    expect(ringNotice()).toEqual(NOTICE_SOUNDS.chime.hz);
    useSettings.getState().update({ noticeSound: 'bell' });
    expect(ringNotice()).toEqual(NOTICE_SOUNDS.bell.hz);
    useSettings.getState().update({ noticeSound: 'beep' });
    expect(ringNotice()).toEqual(NOTICE_SOUNDS.beep.hz);
    expect(new Set([NOTICE_SOUNDS.chime.hz, NOTICE_SOUNDS.bell.hz, NOTICE_SOUNDS.beep.hz].map(String)).size).toBe(3);
    useSettings.getState().update({ noticeSound: 'off' });
    expect(ringNotice()).toBeUndefined();
  });

  it('is chosen in the settings dialog: choosing plays it, saving makes it the one notices ring', async () => {
    render(
      <App>
        <SettingsDialog open onClose={() => {}} />
      </App>,
    );
    fireEvent.click(await screen.findByText('Sounds'));
    const select = screen.getByTestId('settings-notice-sound');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    const listbox = await screen.findByRole('listbox');
    expect(listbox).toBeTruthy();
    fireEvent.click(await screen.findByTitle('Bell'));
    expect(played.at(-1)).toEqual(NOTICE_SOUNDS.bell.hz); // the preview
    expect(useSettings.getState().noticeSound).toBe('chime'); // not kept before OK
    fireEvent.click(within(document.querySelector('.ant-modal-footer') as HTMLElement).getByText('OK'));
    await waitFor(() => expect(useSettings.getState().noticeSound).toBe('bell'));
    expect(ringNotice()).toEqual(NOTICE_SOUNDS.bell.hz);
  }, 30_000);
});
