import { describe, expect, it } from 'vitest';
import { priorityMode } from './console';

describe('audio playback priority setting → voice.priority', () => {
  it('maps the settings values onto the server modes', () => {
    expect(priorityMode('latest')).toBe('latest');
    expect(priorityMode('ownGroup')).toBe('ptt');
    expect(priorityMode('dispatcherFirst')).toBe('dispatcher');
    expect(priorityMode('unknown')).toBe('first');
  });
});
