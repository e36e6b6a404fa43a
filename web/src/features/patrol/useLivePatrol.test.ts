// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { patrolKeys } from './api';
import { PATROL_EVENTS } from './useLivePatrol';

describe('live patrol', () => {
  it("a punch refreshes the logs, every order list and that order's points", () => {
    expect(staleKeys(PATROL_EVENTS, 'patrol.punch', { order: { orderId: 5 } })).toEqual([['patrol', 'logs'], ['patrol', 'orders'], ['patrol', 'orderPoints', 5]]);
    expect(staleKeys(PATROL_EVENTS, 'patrol.punch', {})).toEqual([patrolKeys.logs.all, patrolKeys.orders.all]);
  });

  it("an order event refreshes the order lists and that order's points, not the logs", () => {
    expect(staleKeys(PATROL_EVENTS, 'patrol.order', { orderId: 9 })).toEqual([['patrol', 'orders'], ['patrol', 'orderPoints', 9]]);
  });

  it('refreshes what the panels query', () => {
    // the invalidated prefixes must be prefixes of the panels' own keys
    expect(patrolKeys.orders({ startDate: 'a' }).slice(0, 2)).toEqual(patrolKeys.orders.all);
    expect(patrolKeys.orderPoints(9)).toEqual(['patrol', 'orderPoints', 9]);
  });
});
