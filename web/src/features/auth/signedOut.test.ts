import { beforeAll, describe, expect, it } from 'vitest';
import { i18next, initI18n } from '../../i18n';
import { clearSignedOut, noteSignedOut, shownSignedOut, signedOutText, useSignedOut } from './signedOut';

beforeAll(async () => {
  await initI18n('en-US');
});

describe('why the window was signed out', () => {
  const t = i18next.t.bind(i18next);
  const at = Date.UTC(2026, 10, 28, 15, 11, 0);

  it('names the address and the time of the sign-in that replaced the session', () => {
    const text = signedOutText(t, { reason: 'replaced', ip: '192.0.2.7', time: at }, 'en-US');
    expect(text).toContain('192.0.2.7');
    expect(text).toContain(new Date(at).toLocaleString('en-US'));
  });
  it('says "another device" when the address is not known (a login on another node), and falls back without a time', () => {
    expect(signedOutText(t, { reason: 'replaced', time: at }, 'en-US')).toMatch(/another device/);
    expect(signedOutText(t, { reason: 'replaced' }, 'en-US')).toBe(t('common:errors.replaced'));
    expect(signedOutText(t, { reason: 'expired' }, 'en-US')).toBe(t('common:errors.tokenTimeout'));
  });
  it('is left to the new page load when the sign-out reloads: the page being left may show the login page first', () => {
    noteSignedOut({ reason: 'replaced', ip: '192.0.2.7', time: at }, { reload: true });
    shownSignedOut(); // the old page's router rendered the login page before the load
    expect(JSON.parse(sessionStorage.getItem('tenfour.signedOut')!)).toMatchObject({ ip: '192.0.2.7' });
    clearSignedOut();
    expect(sessionStorage.getItem('tenfour.signedOut')).toBeNull();
  });
  it('is kept over the page load to the login page, shown once, and dropped by a new sign-in', () => {
    noteSignedOut({ reason: 'replaced', ip: '192.0.2.7', time: at });
    expect(JSON.parse(sessionStorage.getItem('tenfour.signedOut')!)).toMatchObject({ ip: '192.0.2.7' });
    shownSignedOut();
    expect(sessionStorage.getItem('tenfour.signedOut')).toBeNull();
    expect(useSignedOut.getState().notice).toMatchObject({ reason: 'replaced' }); // still on screen
    clearSignedOut();
    expect(useSignedOut.getState().notice).toBeUndefined();
  });
});
