// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { englishErrorText, expectCommonCodes } from '../../shared/test/errorText';
import patrol from './i18n/en-US.json';

const text = await englishErrorText('patrol', patrol);

describe('patrol error text', () => {
  it("shows patrol's own codes from the server's key, and the generic ones from the common namespace", () => {
    expect(text(new ApiError('1021', 'NFC value exists in this area', 'patrol.errors.1021'))).toBe(patrol.errors['1021']);
    expectCommonCodes(text);
  });

  it('shows the client\'s own "1011" (signing in again failed) and the sign-in form\'s codes', () => {
    expect(text(new ApiError('1011', 'patrol token expired', 'patrol.errors.1011'))).toBe(patrol.errors['1011']);
    expect(text(new ApiError('6'))).toBe(patrol.errors['6']);
  });
});
