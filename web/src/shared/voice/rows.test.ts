// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { memberCallState } from './rows';
import type { CallView } from './protocol';

const person = (msId: string) => ({ msId, name: msId, type: '10' });
const single = (callId: string, state: CallView['state'], a: string, b: string, bState = 'invited'): CallView => ({
  callId,
  kind: 'single',
  state,
  status: 100,
  initiator: person(a),
  parties: [{ ...person(a), state: 'connected' }, { ...person(b), state: bState }],
  started: 1,
});

describe('member call states (spec §4)', () => {
  it('calling while an individual call is set up, in individual call once connected', () => {
    const calls = { s1: single('s1', 'ringing', 'A', 'B') };
    expect(memberCallState(calls, 'A')).toBe('calling');
    expect(memberCallState(calls, 'B')).toBe('calling');
    expect(memberCallState(calls, 'C')).toBeUndefined();
    const connected = { s1: single('s1', 'connected', 'A', 'B', 'connected') };
    expect(memberCallState(connected, 'A')).toBe('inCall');
    expect(memberCallState(connected, 'B')).toBe('inCall');
  });

  it('ignores group calls, ended calls and parties that left', () => {
    const group: CallView = { callId: 'g', kind: 'group', state: 'connected', status: 202, initiator: person('A'), started: 1, gid: '7' };
    expect(memberCallState({ g: group }, 'A')).toBeUndefined();
    expect(memberCallState({ s: single('s', 'ended', 'A', 'B') }, 'A')).toBeUndefined();
    expect(memberCallState({ s: single('s', 'connected', 'A', 'B', 'left') }, 'B')).toBeUndefined();
  });

  it('a connected call wins over another being set up', () => {
    const calls = { a: single('a', 'trying', 'A', 'C'), b: single('b', 'connected', 'B', 'A', 'connected') };
    expect(memberCallState(calls, 'A')).toBe('inCall');
  });
});
