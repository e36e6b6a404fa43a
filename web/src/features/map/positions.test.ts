// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { newerPositions } from './positions';
import type { Terminal } from '../../shared/directory/model';

const rec = (msId: string, time: number, battery = -1) => ({ msId, lat: 41, lng: 29, time, speed: 2, direction: 0, altitude: 0, battery, signal: -1 });

describe('positions from gps_{x}.bin', () => {
  it('moves only known terminals whose fix is newer than the one shown', () => {
    const terminals = {
      a: { cid: 'a', name: 'A', type: '10', online: '1', grp: '1', lastGps: 100 } as Terminal,
      b: { cid: 'b', name: 'B', type: '10', online: '1', grp: '1', lastGps: 500 } as Terminal,
      c: { cid: 'c', name: 'C', type: '10', online: '0', grp: '1' } as Terminal,
    };
    const ev = newerPositions([rec('a', 200, 80), rec('b', 400), rec('c', 50), rec('zz', 900)], terminals);
    expect(ev).toEqual([
      { type: 'terminal.status', data: { msId: 'a', lat: 41, lng: 29, speed: 2, time: 200, battery: 80 } },
      { type: 'terminal.status', data: { msId: 'c', lat: 41, lng: 29, speed: 2, time: 50 } },
    ]);
  });
});
