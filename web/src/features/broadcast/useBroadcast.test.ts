// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { broadcastKeys } from './api';
import { BROADCAST_EVENTS } from './useBroadcast';

describe('live broadcast', () => {
  it('each event refreshes the lists it concerns, under the keys the screen queries', () => {
    expect(staleKeys(BROADCAST_EVENTS, 'broadcast.task', {})).toEqual([['broadcast', 'tasks'], ['broadcast', 'realTime']]);
    expect(staleKeys(BROADCAST_EVENTS, 'broadcast.devices', {})).toEqual([broadcastKeys.devices()]);
    // the paging console's own signal (PageButton): one store per event, the speakers' change comes as broadcast.devices
    expect(staleKeys(BROADCAST_EVENTS, 'broadcast.pageEnded', {})).toEqual([]);
    expect(staleKeys(BROADCAST_EVENTS, 'broadcast.missed', {})).toEqual([broadcastKeys.tasks()]);
    expect(staleKeys(BROADCAST_EVENTS, 'broadcast.orgs', {})).toEqual([]);
  });
});
