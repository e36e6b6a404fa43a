// Live indoor: a building, floor, beacon or area changed (indoor.changed) makes the plans stale; the positions
// store takes the last positions at open and at every (re)connect — the socket coming (back) online refetches all
// of indoor (shared useLiveQueries) — and then each indoor.position, one a second a terminal: too many to refetch
// a query for each, so they go to the store of their own (store.ts).
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { live } from '../../shared/socket/live';
import { useLiveQueries, type LiveKeys } from '../../shared/socket/useLiveQueries';
import { indoorApi, indoorKeys, type Position } from './api';
import { applyPosition, setPositions } from './store';

/** Which indoor queries each indoor event makes stale. */
export const INDOOR_EVENTS: Record<string, LiveKeys> = {
  'indoor.changed': [indoorKeys.buildings.all],
};

export function useLiveIndoor(): void {
  useLiveQueries(INDOOR_EVENTS, indoorKeys.all);
  const last = useQuery({ queryKey: indoorKeys.last(), queryFn: () => indoorApi.last(), staleTime: 0 });
  useEffect(() => {
    if (last.data) setPositions(last.data.list);
  }, [last.data, last.dataUpdatedAt]);
  useEffect(() => live().on<Position>('indoor.position', (e) => applyPosition(e.data)), []);
}
