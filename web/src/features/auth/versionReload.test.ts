import { describe, expect, it } from 'vitest';
import { shouldReloadWithVersion, withVersion } from './versionReload';
import { parseAutoLogin } from './passwordRules';
import { timeZoneToMs } from '../../shared/session';

const base = { search: '', hasOpener: false, autoLoginKeys: ['sso'], version: '1.4.2' };

describe('version reload rule (spec §4)', () => {
  it('reloads once with the version parameter', () => {
    expect(shouldReloadWithVersion(base)).toBe(true);
    expect(withVersion('/home', '1.4.2')).toBe('/home?v=1.4.2');
  });
  it('does not reload when the version is already present', () => {
    expect(shouldReloadWithVersion({ ...base, search: '?v=1.4.2' })).toBe(false);
  });
  it('does not reload with an auto-login key in the address', () => {
    expect(shouldReloadWithVersion({ ...base, search: '?sso=abc' })).toBe(false);
    expect(shouldReloadWithVersion({ ...base, search: '?other=abc' })).toBe(true);
  });
  it('does not reload in a window that has an opener', () => {
    expect(shouldReloadWithVersion({ ...base, hasOpener: true })).toBe(false);
  });
  it('does not reload without a known version', () => {
    expect(shouldReloadWithVersion({ ...base, version: undefined })).toBe(false);
  });
});

describe('auto-login keys and time zone', () => {
  it('reads base64 account:password under a configured key only', () => {
    const v = btoa('10000001:123456');
    expect(parseAutoLogin(`?sso=${v}`, ['sso'])).toEqual({ account: '10000001', password: '123456' });
    expect(parseAutoLogin(`?x=${v}`, ['sso'])).toBeUndefined();
  });
  it('turns hours into milliseconds', () => {
    expect(timeZoneToMs('8')).toBe(28_800_000);
    expect(timeZoneToMs('5.5')).toBe(19_800_000);
    expect(timeZoneToMs('-3')).toBe(-10_800_000);
    expect(timeZoneToMs(undefined)).toBe(0);
  });
});
