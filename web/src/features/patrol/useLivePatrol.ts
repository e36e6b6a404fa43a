// Live patrol: a terminal's punch (patrol.punch) and an order generated, punched or judged (patrol.order) make the
// patrol queries they touch stale; the socket coming (back) online refetches all of patrol (shared useLiveQueries).
import { useLiveQueries, type LiveKeys } from '../../shared/socket/useLiveQueries';
import { patrolKeys, type Order } from './api';

const orderPoints = (order?: Order) => (order?.orderId ? [patrolKeys.orderPoints(order.orderId)] : []);

/** Which patrol queries each patrol event makes stale. */
export const PATROL_EVENTS: Record<string, LiveKeys> = {
  'patrol.order': (o?: Order) => [patrolKeys.orders.all, ...orderPoints(o)],
  'patrol.punch': (p?: { order?: Order }) => [patrolKeys.logs.all, patrolKeys.orders.all, ...orderPoints(p?.order)],
};

export function useLivePatrol(): void {
  useLiveQueries(PATROL_EVENTS, patrolKeys.all);
}
