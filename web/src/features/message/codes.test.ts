// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { englishErrorText } from '../../shared/test/errorText';
import common from '../../shared/i18n/en-US.json';
import message from './i18n/en-US.json';
import { codeFailure } from './codes';

const errorText = await englishErrorText('message', message);
const text = (code: string) => errorText(codeFailure(code));

describe('message code text', () => {
  it("words the message's own codes (server, client and the console's) from its errors", () => {
    expect(text('4')).toBe(message.errors['4']);
    expect(text('408')).toBe(message.errors['408']);
    expect(text('no socket')).toBe(message.errors.noSocket);
    expect(text('tooLong')).toBe(message.errors.tooLong);
  });

  it('words the generic codes once, in common, and an unknown code as a failure with its code', () => {
    expect(text('429')).toBe(common.codes['429']);
    expect(text('timeout')).toBe(common.codes.timeout);
    expect(text('failed')).toBe(common.codes.failed);
    expect(text('12345')).toBe(common.codes.other.replace('{{code}}', '12345'));
  });
});
