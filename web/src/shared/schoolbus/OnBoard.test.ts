// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../socket/useLiveQueries';
import { SCHOOLBUS_EVENTS, schoolbusKeys } from './OnBoard';

describe('who is on a bus, live', () => {
  it("a punch refreshes every bus's list: a student may leave one bus and board another", () => {
    expect(staleKeys(SCHOOLBUS_EVENTS, 'bus.punched', { punch: { busId: '20000001' } })).toEqual([['schoolbus', 'onboard']]);
    expect(schoolbusKeys.onboard('20000001').slice(0, 2)).toEqual(schoolbusKeys.onboard.all);
  });
});
