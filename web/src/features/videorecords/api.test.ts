// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, recordFileUrl } from './api';

describe('recorded calls and monitorings', () => {
  it('shows sizes, durations and the file addresses', () => {
    expect(formatBytes(500)).toBe('1 kB');
    expect(formatBytes(300 * 1024)).toBe('300 kB');
    expect(formatBytes(5.5 * 1024 * 1024)).toBe('5.5 MB');
    expect(formatDuration(3_661_000)).toBe('1:01:01');
    expect(recordFileUrl({ url: '/ds/video/recordFile?id=7' })).toBe('/ds/video/recordFile?id=7');
    expect(recordFileUrl({ url: '/ds/video/recordFile?id=7' }, true)).toBe('/ds/video/recordFile?id=7&download=1');
  });
});
