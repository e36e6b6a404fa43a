import { describe, expect, it } from 'vitest';
import { noPictureReason, place, resize } from './store';
import { RTSP_URL, STREAM_ID } from './components/CameraDialog';

describe('grid', () => {
  it('places a camera on the chosen tile, else the first empty one, and shows it once', () => {
    expect(place([null, null, null, null], 'a')).toEqual(['a', null, null, null]);
    expect(place(['a', null, null, null], 'b')).toEqual(['a', 'b', null, null]);
    expect(place(['a', 'b', null, null], 'c', 0)).toEqual(['c', 'b', null, null]);
    expect(place(['a', 'b', null, null], 'a', 1)).toEqual(['b', 'a', null, null]);
    expect(place(['a', 'b', 'c', 'd'], 'e')).toEqual(['a', 'b', 'c', 'e']);
  });
  it('resizes keeping what fits', () => {
    expect(resize(['a', 'b', 'c', 'd'], 1)).toEqual(['a']);
    expect(resize(['a'], 4)).toEqual(['a', null, null, null]);
  });
});

describe('why a tile has no picture', () => {
  it('names the server reason, the missing tool and the wait', () => {
    expect(noPictureReason({ state: 'failed', code: '502', key: 'camera.offline' }, false, true)).toBe('reason.offline');
    expect(noPictureReason({ state: 'failed', code: '201', key: 'camera.busy' }, true, true)).toBe('reason.busy');
    expect(noPictureReason({ state: 'playing' }, false, true)).toBe('reason.waiting');
    expect(noPictureReason({ state: 'playing' }, true, true)).toBeUndefined();
    expect(noPictureReason({ state: 'connecting' }, false, true)).toBe('reason.connecting');
    expect(noPictureReason(undefined, false, false)).toBe('reason.noTool');
  });
});

describe('camera form rules (the server\'s)', () => {
  it('accepts stream ids and rtsp addresses', () => {
    expect(STREAM_ID.test('cam-1.main_2')).toBe(true);
    expect(STREAM_ID.test('a b')).toBe(false);
    expect(RTSP_URL.test('rtsp://user:pw@10.0.0.5:554/Streaming/101')).toBe(true);
    expect(RTSP_URL.test('http://10.0.0.5/x')).toBe(false);
    expect(RTSP_URL.test('rtsp:///x')).toBe(false);
  });
});
