// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { FenceAlarm } from './api';
import { applyFenceAlarm, currentTalkers, type MapLiveState } from './live';

const empty = (): MapLiveState => ({ fenceAlarms: [] });
const alarm = (id: string, status: 0 | 1 | 2 = 0) => ({ id, status, msId: '1', fenceid: '3' }) as FenceAlarm;

describe('map live state', () => {
  it('takes who talks from the voice store', () => {
    expect([...currentTalkers({ a: 'c1', b: 'c2' })].sort()).toEqual(['a', 'b']);
    expect(currentTalkers({}).size).toBe(0);
  });
  it('applies a fence alarm once and replaces it when updated (replays after a reconnect)', () => {
    const a = applyFenceAlarm(empty(), alarm('5'));
    expect(a.isNew).toBe(true);
    const s = { ...empty(), ...a.patch };
    const again = applyFenceAlarm(s, alarm('5', 2));
    expect(again.isNew).toBe(false);
    expect(again.patch.fenceAlarms).toHaveLength(1);
    expect(again.patch.fenceAlarms![0]!.status).toBe(2);
  });
});
