// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { acceptsDrop, dotOf, DRAG_TYPE, dropped, monitorReason, noPictureReason, place, resize, TERMINAL_DRAG_TYPE, terminalTile, tileTerminal } from './store';
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

describe('a camera dot', () => {
  it('shows whether a camera not opened answers (issue 33: every dot stayed grey until opened)', () => {
    expect(dotOf({ state: 'idle', reach: 'online' })).toEqual({ badge: 'success', key: 'dot.online' });
    expect(dotOf({ state: 'idle', reach: 'offline' })).toEqual({ badge: 'error', key: 'dot.offline' });
    expect(dotOf({ state: 'idle' }).key).toBe('dot.unknown');
    expect(dotOf(undefined).key).toBe('dot.unknown');
    expect(dotOf({ state: 'playing', reach: 'offline' }).key).toBe('dot.streaming'); // a pull says more
    expect(dotOf({ state: 'connecting' }).key).toBe('dot.connecting');
    expect(dotOf({ state: 'failed', key: 'surveillance.errors.offline' }).badge).toBe('error');
  });
});

describe('why a tile has no picture', () => {
  it('names the server reason, the missing tool and the wait', () => {
    expect(noPictureReason({ state: 'failed', code: '502', key: 'surveillance.errors.offline' }, false, true)).toBe('surveillance:errors.offline');
    expect(noPictureReason({ state: 'failed', code: '201', key: 'surveillance.errors.busy' }, true, true)).toBe('surveillance:errors.busy');
    expect(noPictureReason({ state: 'failed' }, false, true)).toBe('errors.offline');
    expect(noPictureReason({ state: 'playing' }, false, true)).toBe('reason.waiting');
    expect(noPictureReason({ state: 'playing' }, true, true)).toBeUndefined();
    expect(noPictureReason({ state: 'connecting' }, false, true)).toBe('reason.connecting');
    expect(noPictureReason(undefined, false, false)).toBe('errors.noTool');
  });
});

describe('dragging a terminal onto a tile', () => {
  const drag = (data: Record<string, string>) => (type: string) => data[type] ?? '';
  const canMonitor = (msId: string) => msId === '10000161';
  it('reads a camera or a camera-capable terminal from the drop, nothing else', () => {
    expect(dropped(drag({ [DRAG_TYPE]: 'gate' }), canMonitor)).toBe('gate');
    expect(dropped(drag({ [TERMINAL_DRAG_TYPE]: '10000161' }), canMonitor)).toBe(terminalTile('10000161'));
    expect(dropped(drag({ [TERMINAL_DRAG_TYPE]: '10000162' }), canMonitor)).toBeUndefined(); // a radio: no camera
    expect(dropped(drag({ 'text/plain': 'gate' }), canMonitor)).toBeUndefined();
    expect(acceptsDrop([TERMINAL_DRAG_TYPE])).toBe(true);
    expect(acceptsDrop(['Files'])).toBe(false);
  });
  it('keeps terminals and cameras apart on the grid, a terminal on one tile at a time', () => {
    const t = terminalTile('10000161');
    expect(tileTerminal(t)).toBe('10000161');
    expect(tileTerminal('gate')).toBeUndefined();
    expect(tileTerminal(null)).toBeUndefined();
    expect(place(['gate', t, null, null], t, 0)).toEqual([t, 'gate', null, null]);
  });
  it('says why a monitored terminal has no picture', () => {
    expect(monitorReason(undefined, false)).toBe('reason.connecting');
    expect(monitorReason({ view: { state: 'media', status: 102 } }, false)).toBe('reason.connecting');
    expect(monitorReason({ view: { state: 'connected', status: 202 } }, false)).toBe('reason.waiting');
    expect(monitorReason({ view: { state: 'connected', status: 202 } }, true)).toBeUndefined();
    expect(monitorReason({ view: { state: 'ended', status: 101 }, refused: '101' }, false)).toBe('reason.terminalOffline');
    expect(monitorReason({ view: { state: 'ended', status: 502 } }, false)).toBe('errors.streamNotFound');
    expect(monitorReason({ view: { state: 'ended', status: 201 }, refused: '201' }, false)).toBe('errors.busy');
    expect(monitorReason({ view: { state: 'ended', status: 606 }, refused: '606' }, false)).toBe('reason.terminalNotSupported');
    expect(monitorReason({ view: { state: 'ended', status: 406 }, refused: '406' }, false)).toBe('reason.maxMonitors');
    expect(monitorReason({ view: { state: 'ended', status: 500 }, refused: 'failed' }, false)).toBe('reason.failed');
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
