import { describe, expect, it } from 'vitest';
import { priorityMode } from './console';

describe('audio playback priority setting → voice.priority', () => {
  it.each([
    ['latest', 'latest'],
    ['first', 'first'],
    ['ownGroup', 'ptt'],
    ['dispatcherFirst', 'dispatcher'],
    ['unknown', 'first'],
  ])('maps the setting %s onto the server mode %s', (setting, mode) => {
    expect(priorityMode(setting)).toBe(mode);
  });
});

describe('default playback priority', () => {
  it('is "my groups first" (server mode ptt), also for settings stored with the old default "latest"', async () => {
    const { DEFAULT_SETTINGS, SETTINGS_KEY, useSettings } = await import('../settings');
    expect(priorityMode(DEFAULT_SETTINGS.audioPriority)).toBe('ptt');
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ state: { audioPriority: 'latest', stored: true, theme: 'light' }, version: 1 }));
    await useSettings.persist.rehydrate();
    expect(useSettings.getState().audioPriority).toBe('ownGroup');
    // A choice stored after the change is kept.
    useSettings.getState().update({ audioPriority: 'latest' });
    await useSettings.persist.rehydrate();
    expect(useSettings.getState().audioPriority).toBe('latest');
  });
});
