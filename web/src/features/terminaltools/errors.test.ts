// @vitest-environment node
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ApiError } from '../../shared/http/client';
import { errorText } from '../../shared/errorText';
import common from '../../shared/i18n/en-US.json';
import terminaltools from './i18n/en-US.json';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'en-US', ns: ['common', 'terminaltools'], defaultNS: 'common', resources: { 'en-US': { common, terminaltools } } });
const text = (e: unknown) => errorText(i18n, 'terminaltools', e);

describe('terminal tools error text (rights, mute list, parameters, TURN credentials)', () => {
  it('says its domain codes: terminal offline, no acknowledgement, TURN off', () => {
    expect(text({ code: '4' })).toBe(terminaltools.errors['4']);
    expect(text(new ApiError('408', 'terminal did not acknowledge'))).toBe(terminaltools.errors['408']);
    expect(text(new ApiError('409', 'turn not enabled'))).toBe(terminaltools.errors['409']);
  });

  it('leaves the generic codes and transport failures to the common namespace', () => {
    expect(text(new ApiError('107', 'no permission', 'errors.permission'))).toBe(common.codes['107']);
    expect(text({ code: '400' })).toBe(common.codes['400']);
    expect(text(new ApiError('500', 'offline', undefined, true))).toBe(common.codes.network);
    expect(text({ code: '12345' })).toBe(i18n.t('common:codes.other', { code: '12345' }));
  });
});
