import { describe, expect, it } from 'vitest';
import type { FenceAlarm } from './api';
import type { SosAlarm, SosState } from '../alarms/sos';
import { applyFenceAlarm, applyFloor, applySos, loadSos, talkingSet, type MapLiveState } from './live';

const empty = (): MapLiveState => ({ talkers: {}, sos: {}, fenceAlarms: [], version: 0 });
const sos = (id: string, msId: string, state: SosState): SosAlarm => ({ id, msId, msName: msId, state, time: 1, lat: 41, lng: 29, type: '0', responder: '', responderName: '', responseTime: 0, closer: '', closerName: '', closeTime: 0, closeKind: '', remark: '' });
const alarm = (id: string, status: 0 | 1 | 2 = 0) => ({ id, status, msId: '1', fenceid: '3' }) as FenceAlarm;

describe('map live state', () => {
  it('tracks talkers per call', () => {
    let s = { ...empty(), ...applyFloor(empty(), { callId: 'c1', talker: { msId: 'a' } }) };
    expect([...talkingSet(s)]).toEqual(['a']);
    expect(applyFloor(s, { callId: 'c1', talker: { msId: 'a' } })).toBeNull();
    s = { ...s, ...applyFloor(s, { callId: 'c1', talker: null }) };
    expect(talkingSet(s).size).toBe(0);
  });
  it('keeps open SOS alarms and drops closed ones', () => {
    let s = { ...empty(), ...applySos(empty(), sos('1', 'a', 0)) };
    expect(s.sos.a?.id).toBe('1');
    s = { ...s, ...applySos(s, sos('1', 'a', 1)) };
    expect(s.sos.a?.state).toBe(1);
    expect(applySos(s, sos('9', 'a', 2))).toBeNull(); // another (old) alarm of the terminal closed
    s = { ...s, ...applySos(s, sos('1', 'a', 2)) };
    expect(s.sos.a).toBeUndefined();
    expect(loadSos(s, [sos('2', 'b', 0), sos('3', 'c', 2)]).sos).toEqual({ b: sos('2', 'b', 0) });
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
