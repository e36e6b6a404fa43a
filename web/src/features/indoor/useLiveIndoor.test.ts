// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { indoorKeys } from './api';
import { INDOOR_EVENTS } from './useLiveIndoor';

describe('live indoor', () => {
  it('a change of the plans refreshes the buildings, not the last positions', () => {
    expect(staleKeys(INDOOR_EVENTS, 'indoor.changed', { what: 'beacon', id: 3 })).toEqual([['indoor', 'buildings']]);
    expect(staleKeys(INDOOR_EVENTS, 'indoor.changed', {})).not.toContainEqual(indoorKeys.last.all);
  });

  it('positions are not queries: an indoor.position refreshes none', () => {
    expect(staleKeys(INDOOR_EVENTS, 'indoor.position', { msId: 'a' })).toEqual([]);
  });

  it('refreshes what the page queries, and resyncs all of indoor', () => {
    expect(indoorKeys.buildings()).toEqual(indoorKeys.buildings.all);
    expect(indoorKeys.last().slice(0, 1)).toEqual(indoorKeys.all);
  });
});
