// A feature's failure sentences in its tests: errorText over the common table and the feature's English one, as
// useErrorText(ns) words them in the console.
import i18next from 'i18next';
import { expect } from 'vitest';
import { ApiError } from '../http/client';
import { errorText } from '../errorText';
import common from '../i18n/en-US.json';

/** The English sentence useErrorText(ns) shows for a failure, with table as ns's locale. */
export async function englishErrorText(ns: string, table: object): Promise<(e: unknown) => string> {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en-US', ns: ['common', ns], defaultNS: 'common', resources: { 'en-US': { common, [ns]: table } } });
  return (e) => errorText(i18n, ns, e);
}

/** Checks that text words the generic failures with the common table: a 404 by the server's key, a bare code 95. */
export function expectCommonCodes(text: (e: unknown) => string): void {
  expect(text(new ApiError('404', 'not found', 'errors.notFound'))).toBe(common.codes['404']);
  expect(text(new ApiError('95'))).toBe(common.codes['95']);
}
