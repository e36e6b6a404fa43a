// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { englishErrorText, expectCommonCodes } from '../../shared/test/errorText';
import common from '../../shared/i18n/en-US.json';
import surveillance from './i18n/en-US.json';

const text = await englishErrorText('surveillance', surveillance);

describe('surveillance error text (cameras added, edited, deleted; snapshots and recordings of a tile)', () => {
  it("says the camera service's failures by their key, where the code alone is another's (502 ×4, 107, 404, 101)", () => {
    expect(text(new ApiError('502', 'the camera cannot be reached', 'surveillance.errors.offline'))).toBe(surveillance.errors.offline);
    expect(text(new ApiError('502', 'the camera refused the user name or password', 'surveillance.errors.unauthorized'))).toBe(surveillance.errors.unauthorized);
    expect(text(new ApiError('107', 'exceeded maximum concurrent connections', 'surveillance.errors.maxConnections'))).toBe(surveillance.errors.maxConnections);
    expect(text(new ApiError('107', 'outside the allowed networks', 'surveillance.errors.networkNotAllowed'))).toBe(surveillance.errors.networkNotAllowed);
    expect(text(new ApiError('404', 'the stream is not being recorded', 'surveillance.errors.notRecording'))).toBe(surveillance.errors.notRecording);
    expect(text(new ApiError('409', 'a camera with this stream id exists', 'surveillance.errors.streamExists'))).toBe(surveillance.errors.streamExists);
    expect(text(new ApiError('101', 'the server is busy, try again', 'surveillance.errors.serverBusy'))).toBe(surveillance.errors.serverBusy);
  });

  it('leaves the generic codes and transport failures to the common namespace', () => {
    expectCommonCodes(text);
    expect(text(new ApiError('400', 'streamUrl: not rtsp', 'errors.badParam'))).toBe(common.codes['400']);
    expect(text(new ApiError('404', 'the recording file is missing', 'surveillance.errors.noFile'))).toBe(common.codes['404']);
    expect(text(new ApiError('500', 'offline', undefined, true))).toBe(common.codes.network);
    expect(text(new ApiError('12345'))).toBe('The operation failed (code 12345).');
  });
});
