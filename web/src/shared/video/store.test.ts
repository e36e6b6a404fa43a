// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { uiState, callCapable, cameraCapable } from './store';
import { RESOLUTIONS } from './media';

describe('video call states (spec §4)', () => {
  it('maps the server states and end codes to the console states', () => {
    expect(uiState({ state: 'trying', status: 100 })).toBe('connecting');
    expect(uiState({ state: 'media', status: 102 })).toBe('connecting');
    expect(uiState({ state: 'ringing', status: 180 })).toBe('awaiting');
    expect(uiState({ state: 'answered', status: 200 })).toBe('awaiting');
    expect(uiState({ state: 'connected', status: 202 })).toBe('connected');
    expect(uiState({ state: 'ended', status: 603 })).toBe('declined');
    expect(uiState({ state: 'ended', status: 487 })).toBe('canceled');
    expect(uiState({ state: 'ended', status: 486 })).toBe('busy');
    expect(uiState({ state: 'ended', status: 201 })).toBe('busy');
    expect(uiState({ state: 'ended', status: 408 })).toBe('timedOut');
    for (const s of [200, 101, 402, 418, 500, 502, 503, 606]) expect(uiState({ state: 'ended', status: s })).toBe('disconnected');
  });
  it('offers calls to apps and monitoring to apps and cameras', () => {
    expect(callCapable('10')).toBe(true);
    expect(callCapable('camera')).toBe(false);
    expect(cameraCapable('camera')).toBe(true);
    expect(cameraCapable('6')).toBe(false);
  });
  it('keeps spec §9 resolution order', () => {
    expect(RESOLUTIONS.map((r) => r.name)).toEqual(['720p', 'SVGA', 'VGA', '360p', 'CIF', 'QCIF', 'QQVGA']);
  });
});
