// @vitest-environment node
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ApiError } from '../../shared/http/client';
import { errorText } from '../../shared/errorText';
import common from '../../shared/i18n/en-US.json';
import broadcast from './i18n/en-US.json';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'en-US', ns: ['common', 'broadcast'], defaultNS: 'common', resources: { 'en-US': { common, broadcast } } });
const text = (e: unknown) => errorText(i18n, 'broadcast', e);

describe('broadcast error text', () => {
  it("reads broadcast's meaning of a generic code from the server's key", () => {
    expect(text(new ApiError('107', 'broadcast needs account type 1', 'broadcast.errors.accountType'))).toBe(broadcast.errors.accountType);
    expect(text(new ApiError('101', 'system busy, try again', 'broadcast.errors.busy'))).toBe(broadcast.errors.busy);
    expect(text(new ApiError('107', 'no permission', 'errors.permission'))).toBe(common.codes['107']);
  });

  it('shows its domain codes, the console audio codes, and the generic ones from the common namespace', () => {
    expect(text(new ApiError('1004', 'the organisation still has devices', 'broadcast.errors.orgHasDevices'))).toBe(broadcast.errors['1004']);
    expect(text({ code: '800' })).toBe(broadcast.errors['800']);
    expect(text(new ApiError('413', 'request too large', 'errors.tooLarge'))).toBe(common.codes['413']);
    expect(text(new ApiError('500', 'offline', undefined, true))).toBe(common.codes.network);
  });
});
