import { describe, expect, it } from 'vitest';
import { priorityMode } from './console';

describe('audio playback priority setting → voice.priority', () => {
  it('maps the settings values onto the server modes', () => {
    expect(priorityMode('latest')).toBe('latest');
    expect(priorityMode('first')).toBe('first');
    expect(priorityMode('ownGroup')).toBe('ptt');
    expect(priorityMode('dispatcherFirst')).toBe('dispatcher');
    expect(priorityMode('unknown')).toBe('first');
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
