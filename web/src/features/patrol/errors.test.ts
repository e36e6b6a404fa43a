// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { englishErrorText } from '../../shared/test/errorText';
import common from '../../shared/i18n/en-US.json';
import patrol from './i18n/en-US.json';

const text = await englishErrorText('patrol', patrol);

describe('patrol error text', () => {
  it("shows patrol's own codes from the server's key, and the generic ones from the common namespace", () => {
    expect(text(new ApiError('1021', 'NFC value exists in this area', 'patrol.errors.1021'))).toBe(patrol.errors['1021']);
    expect(text(new ApiError('404', 'not found', 'errors.notFound'))).toBe(common.codes['404']);
    expect(text(new ApiError('95'))).toBe(common.codes['95']);
  });

  it('shows the client\'s own "1011" (signing in again failed) and the sign-in form\'s codes', () => {
    expect(text(new ApiError('1011', 'patrol token expired', 'patrol.errors.1011'))).toBe(patrol.errors['1011']);
    expect(text(new ApiError('6'))).toBe(patrol.errors['6']);
  });
});
