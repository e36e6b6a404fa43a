// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onlineSocket, sent, fakeSockets } from '../test/terminal';
import { BatteryReporter, type BatteryLike } from './battery';

/** A battery the test charges: level changes fire levelchange as the Battery Status API does. */
class TestBattery extends EventTarget implements BatteryLike {
  level = 0.42;
  charge(level: number) {
    this.level = level;
    this.dispatchEvent(new Event('levelchange'));
  }
}

beforeEach(() => {
  fakeSockets();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const reports = (ws: Parameters<typeof sent>[0]) => sent(ws, 'status.report').map((f) => f.data);

describe('battery reports', () => {
  it('at start, on every change and every status interval; nothing after stop', async () => {
    const { sock, ws } = await onlineSocket();
    const battery = new TestBattery();
    const r = new BatteryReporter(sock, () => Promise.resolve(battery));
    r.schedule(60); // before the battery is known: nothing to report
    await r.start();
    expect(reports(ws)).toEqual([{ battery: 42 }]);
    battery.charge(0.5);
    expect(reports(ws)).toEqual([{ battery: 42 }, { battery: 50 }]);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(reports(ws)).toHaveLength(3);
    r.schedule(60);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reports(ws)).toHaveLength(5);
    r.stop();
    battery.charge(0.9);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(reports(ws)).toHaveLength(5);
    sock.stop();
  });

  it('without the Battery Status API it reports nothing', async () => {
    const { sock, ws } = await onlineSocket();
    const r = new BatteryReporter(sock, () => undefined);
    await r.start();
    r.schedule(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reports(ws)).toEqual([]);
    sock.stop();
  });
});
