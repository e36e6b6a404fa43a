// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { openSosByTerminal } from './store';
import type { SosAlarm, SosState } from './sos';

const sos = (id: string, msId: string, state: SosState, time = 1): SosAlarm => ({ id, msId, msName: msId, msType: '', state, time, lat: 41, lng: 29, type: '0', responder: '', responderName: '', responseTime: 0, closer: '', closerName: '', closeTime: 0, closeKind: '', remark: '' });

describe('open SOS per terminal (what the map draws, from the alarm store)', () => {
  it('keeps the open alarms, the newest of a terminal, and drops closed ones', () => {
    const all = { 1: sos('1', 'a', 0, 10), 2: sos('2', 'a', 1, 20), 3: sos('3', 'b', 2), 4: sos('4', 'c', 1) };
    const by = openSosByTerminal(all);
    expect(Object.keys(by).sort()).toEqual(['a', 'c']);
    expect(by.a!.id).toBe('2');
    expect(openSosByTerminal(all)).toBe(by); // the same store state gives the same table (no redraw)
    expect(openSosByTerminal({})).toEqual({});
  });
});
