// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { KEY_CHANGED, KEY_EVENTS, secretKeyKeys } from './api';

describe('secret keys live data', () => {
  it('refreshes the key list on key.changed and nothing on other events', () => {
    expect(staleKeys(KEY_EVENTS, KEY_CHANGED, { keyId: '1', secretKey: 'K' })).toEqual([['secretkeys', 'list']]);
    expect(staleKeys(KEY_EVENTS, 'theme.changed', {})).toEqual([]);
    expect(secretKeyKeys.list()).toEqual(['secretkeys', 'list']);
    expect(secretKeyKeys.all).toEqual(['secretkeys']);
  });
});
