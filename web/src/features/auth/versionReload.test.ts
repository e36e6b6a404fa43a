// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { carriesVersion, landingAfterSignIn, withVersion } from './versionReload';
import { parseAutoLogin } from './passwordRules';
import { timeZoneToMs } from '../../shared/session';

const base = { search: '', hasOpener: false, autoLoginKeys: ['sso'], version: '1.4.2' };

describe('version parameter rule (spec §4)', () => {
  it('lands on home with the version parameter', () => {
    expect(carriesVersion(base)).toBe(true);
    expect(withVersion('/home', '1.4.2')).toBe('/home?v=1.4.2');
    expect(landingAfterSignIn('/home', base)).toBe('/home?v=1.4.2');
    expect(landingAfterSignIn('/home', { ...base, hasOpener: true })).toBe('/home');
  });
  it('adds no version when the version is already present', () => {
    expect(carriesVersion({ ...base, search: '?v=1.4.2' })).toBe(false);
  });
  it('adds no version with an auto-login key in the address', () => {
    expect(carriesVersion({ ...base, search: '?sso=abc' })).toBe(false);
    expect(carriesVersion({ ...base, search: '?other=abc' })).toBe(true);
  });
  it('adds no version in a window that has an opener', () => {
    expect(carriesVersion({ ...base, hasOpener: true })).toBe(false);
  });
  it('adds no version without a known version', () => {
    expect(carriesVersion({ ...base, version: undefined })).toBe(false);
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
