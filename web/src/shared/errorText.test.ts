// @vitest-environment node
import { beforeAll, describe, expect, it } from 'vitest';
import i18next, { type i18n as I18n } from 'i18next';
import { ApiError } from './http/client';
import { SocketError } from './socket/client';
import { errorText, keyOf } from './errorText';
import common from './i18n/en-US.json';
import commonFr from './i18n/fr-FR.json';

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en-US',
    fallbackLng: 'en-US',
    ns: ['common', 'demo'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    resources: {
      'en-US': {
        common,
        // a feature with its domain codes, a keyed sentence, and a generic code it must not override
        demo: { errors: { '1020': 'This name is taken', busy: 'Busy converting audio', '400': 'demo 400' } },
      },
      'fr-FR': { common: commonFr, demo: { errors: { '1020': 'Nom déjà pris' } } },
    },
  });
});

const text = (e: unknown) => errorText(i18n, 'demo', e);

describe('errorText: the server key, then common codes, then the feature codes', () => {
  it("reads the server's key first, in the namespace it names", () => {
    // 101 is the common "busy", but the key says which busy this is
    expect(text(new ApiError('101', 'system busy', 'demo.errors.busy'))).toBe('Busy converting audio');
    expect(text(new ApiError('105', 'ds token timeout', 'errors.tokenTimeout'))).toBe(common.errors.tokenTimeout);
  });

  it('falls back to the code when the console has no sentence for the key', () => {
    expect(text(new ApiError('1020', 'name exists', 'demo.errors.nameTaken'))).toBe('This name is taken');
    expect(text(new ApiError('404', 'not found', 'errors.notFound'))).toBe(common.codes['404']);
  });

  it('writes generic codes once: common wins over a feature that still has its own', () => {
    expect(text(new ApiError('400'))).toBe(common.codes['400']);
  });

  it('reads transport failures as network or timeout, whatever the service called them', () => {
    expect(text(new ApiError('500', 'offline', undefined, true))).toBe(common.codes.network);
    expect(text(new ApiError('timeout', 'request timed out', undefined, true))).toBe(common.codes.timeout);
    expect(text(new ApiError('500', 'HTTP 502'))).toBe(common.codes['500']);
  });

  it('reads socket and engine failures by their code, and says so when there is none', () => {
    expect(text(new SocketError('1020', 'x'))).toBe('This name is taken');
    expect(text({ code: 429 })).toBe(common.codes['429']);
    expect(text(new Error('boom'))).toBe(common.codes.failed);
    expect(text(new ApiError('4242'))).toBe('The operation failed (code 4242).');
  });

  it('speaks the current language', async () => {
    await i18n.changeLanguage('fr-FR');
    expect(text(new ApiError('1020'))).toBe('Nom déjà pris');
    expect(text(new ApiError('404'))).toBe(commonFr.codes['404']);
    await i18n.changeLanguage('en-US');
  });

  it('maps server keys onto namespaces', () => {
    expect(keyOf('patrol.errors.1020', ['common', 'patrol'])).toBe('patrol:errors.1020');
    expect(keyOf('errors.badParam', ['common', 'patrol'])).toBe('common:errors.badParam');
    expect(keyOf('dispatch.errors.customerMissing', ['common'])).toBe('common:dispatch.errors.customerMissing');
    // the camera service's keys are the surveillance feature's sentences
    expect(keyOf('surveillance.errors.serverBusy', ['common', 'surveillance'])).toBe('surveillance:errors.serverBusy');
    expect(keyOf('patrol:errors.1011', [])).toBe('patrol:errors.1011');
  });
});
