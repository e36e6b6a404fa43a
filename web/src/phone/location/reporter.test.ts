import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, lastWS, onlineSocket, sent, fakeSockets } from '../test/terminal';
import { resetLocation, setGpsInterval, setLocationWanted, shownStatus, useLocation } from './location';
import { LocationReporter, toPoint } from './reporter';

/** The Geolocation API as a test drives it: one watch at a time, positions and errors pushed by the test. */
function fakeGeolocation() {
  let next = 1;
  const watches = new Map<number, { ok: PositionCallback; fail?: PositionErrorCallback | null }>();
  const geo = {
    watchPosition: (ok: PositionCallback, fail?: PositionErrorCallback | null) => {
      watches.set(next, { ok, fail });
      return next++;
    },
    clearWatch: (id: number) => void watches.delete(id),
    getCurrentPosition: () => {},
  } as unknown as Geolocation;
  const fix = (lat: number, lng: number, timestamp: number, more: Partial<GeolocationCoordinates> = {}) =>
    watches.forEach((w) =>
      w.ok({ timestamp, coords: { latitude: lat, longitude: lng, accuracy: 5, altitude: null, altitudeAccuracy: null, heading: null, speed: null, ...more } } as GeolocationPosition),
    );
  const deny = () => watches.forEach((w) => w.fail?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'denied' } as GeolocationPositionError));
  return { geo, fix, deny, watching: () => watches.size };
}

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

beforeEach(() => {
  localStorage.clear();
  fakeSockets();
  vi.useFakeTimers({ now: T0 });
  resetLocation();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('location reports', () => {
  it('the first fix goes out at once, then the newest every interval; the server’s interval applies at once; the switch stops and restarts the watch', async () => {
    const { sock, ws } = await onlineSocket();
    const g = fakeGeolocation();
    const r = new LocationReporter(sock, g.geo);
    r.start();
    expect(useLocation.getState().state).toBe('waiting');

    g.fix(41.03111149, 28.98421, T0 - 1000, { speed: -1, heading: 90, altitude: 12 });
    expect(useLocation.getState().state).toBe('ok');
    expect(sent(ws, 'gps.report').map((f) => f.data)).toEqual([{ lat: 41.031111, lng: 28.98421, time: T0 - 1000, direction: 90, altitude: 12 }]);
    answer(ws, 'gps.report');
    await vi.advanceTimersByTimeAsync(0);
    expect(useLocation.getState().sent).toBe(1);

    g.fix(41.04, 28.99, T0 + 5000);
    expect(sent(ws, 'gps.report')).toHaveLength(1); // only the first fix goes out at once
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent(ws, 'gps.report').map((f) => f.data)).toEqual([expect.anything(), { lat: 41.04, lng: 28.99, time: T0 + 5000 }]);

    setGpsInterval(10);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent(ws, 'gps.report')).toHaveLength(3);

    setLocationWanted(false);
    expect(g.watching()).toBe(0);
    expect(shownStatus(useLocation.getState())).toBe('off');
    expect(localStorage.getItem('tenfour.app.location')).toBe('false');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent(ws, 'gps.report')).toHaveLength(3);

    setLocationWanted(true);
    expect(g.watching()).toBe(1);
    g.deny();
    expect(useLocation.getState().state).toBe('denied');

    r.stop();
    expect(g.watching()).toBe(0);
    setLocationWanted(false);
    setLocationWanted(true);
    expect(g.watching()).toBe(0); // a stopped reporter no longer follows the switch
    sock.stop();
  });

  it('offline, each fix is kept once and the kept fixes go out as one batch after the login; a refused batch is kept again', async () => {
    const { sock, ws } = await onlineSocket();
    const g = fakeGeolocation();
    const r = new LocationReporter(sock, g.geo);
    r.start();
    ws.close(); // the network drops: the socket reconnects in the background
    expect(sock.status).toBe('reconnecting');

    g.fix(41.1, 29.1, T0);
    await vi.advanceTimersByTimeAsync(30_000); // the same fix again: not kept twice
    g.fix(41.2, 29.2, T0 + 40_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.pending.map((p) => p.time)).toEqual([T0, T0 + 40_000]);
    expect(sent(ws, 'gps.report')).toHaveLength(0);

    // Back online: one batch.
    const again = lastWS();
    again.open();
    answer(again, 'session.login', '0', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(sock.status).toBe('online');
    r.flush();
    expect(r.pending).toHaveLength(0);
    expect(sent(again, 'gps.report').map((f) => (f.data as { points: { lat: number }[] }).points.map((p) => p.lat))).toEqual([[41.1, 41.2]]);
    answer(again, 'gps.report', '500');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.pending.map((p) => p.lat)).toEqual([41.1, 41.2]);
    r.stop();
    expect(r.pending).toHaveLength(0);
    sock.stop();
  });

  it('without the Geolocation API the line says so', async () => {
    const { sock } = await onlineSocket();
    const r = new LocationReporter(sock, undefined);
    r.start();
    expect(useLocation.getState().state).toBe('unsupported');
    r.stop();
    sock.stop();
  });

  it('a report has six decimals and never a time in the future', () => {
    expect(toPoint({ lat: 1.23456789, lng: -2.0000004, time: T0 + 9000, speed: 3 }, T0)).toEqual({ lat: 1.234568, lng: -2, time: T0, speed: 3 });
  });
});
