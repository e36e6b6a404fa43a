// Live patrol: a terminal's punch (patrol.punch) and an order generated, punched or judged (patrol.order) update
// the one store of patrol data — the query cache — by refetching what they touch; a reconnect refetches all.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { live, useLiveStatus } from '../../shared/socket/live';
import { patrolKeys, type Order } from './api';

export function useLivePatrol(): void {
  const qc = useQueryClient();
  const status = useLiveStatus((s) => s.status);
  useEffect(() => {
    const offs = [
      live().on<Order>('patrol.order', (e) => {
        void qc.invalidateQueries({ queryKey: ['patrol', 'orders'] });
        if (e.data?.orderId) void qc.invalidateQueries({ queryKey: patrolKeys.orderPoints(e.data.orderId) });
      }),
      live().on<{ order?: Order }>('patrol.punch', (e) => {
        void qc.invalidateQueries({ queryKey: ['patrol', 'logs'] });
        void qc.invalidateQueries({ queryKey: ['patrol', 'orders'] });
        if (e.data?.order?.orderId) void qc.invalidateQueries({ queryKey: patrolKeys.orderPoints(e.data.order.orderId) });
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [qc]);
  const was = useRef(status === 'online');
  useEffect(() => {
    if (status === 'online' && !was.current) void qc.invalidateQueries({ queryKey: patrolKeys.all });
    was.current = status === 'online';
  }, [status, qc]);
}
