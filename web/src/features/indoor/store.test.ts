// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import type { Position } from './api';
import { applyPosition, setPositions, useIndoor } from './store';

const p = (msId: string, time: number, x = 0): Position => ({ msId, buildingId: 1, floorId: 1, x, y: 0, accuracy: 1, uncertain: false, beacons: 6, time });

describe('indoor positions store', () => {
  beforeEach(() => useIndoor.setState({ positions: {} }));

  it('keeps the newest position of each terminal', () => {
    applyPosition(p('a', 2000, 5));
    applyPosition(p('a', 1000, 1)); // late: ignored
    applyPosition(p('b', 1500, 7));
    expect(useIndoor.getState().positions.a.x).toBe(5);
    expect(Object.keys(useIndoor.getState().positions).sort()).toEqual(['a', 'b']);
  });

  it('takes the server list but keeps a live position newer than it', () => {
    applyPosition(p('a', Date.now(), 9));
    setPositions([p('a', Date.now() - 5000, 1), p('c', Date.now() - 5000, 3)]);
    const s = useIndoor.getState().positions;
    expect(s.a.x).toBe(9);
    expect(s.c.x).toBe(3);
  });
});
