// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { signIn } from '../../shared/test/console';
import { recordUrl } from './api';

describe('recording URLs (issue 14 L2)', () => {
  it('carry no session token: the <audio> element sends the cookie', () => {
    signIn();
    expect(recordUrl({ url: '/ds/data/voice?callid=c&btime=1' })).toBe('/ds/data/voice?callid=c&btime=1');
    expect(recordUrl({ url: '/ds/data/voice?callid=c&btime=1' }, true)).toBe('/ds/data/voice?callid=c&btime=1&download=1');
  });
});
