// Patrol statistics, computed from the orders of a range (spec §9: orders are listed 10000 at a time, which is
// what a statistics screen reads): per area, route, person or day — planned, normal, abnormal, waiting, and the
// abnormal orders' reasons.
import type { Order, Reason } from './api';

export type GroupBy = 'area' | 'route' | 'person' | 'day';
export const GROUP_BYS: GroupBy[] = ['area', 'route', 'person', 'day'];

export interface StatRow {
  key: string;
  label: string;
  planned: number;
  normal: number;
  abnormal: number;
  waiting: number;
  reasons: Record<Reason, number>;
}

function keyOf(o: Order, by: GroupBy): [string, string] {
  switch (by) {
    case 'area':
      return [String(o.areaId), o.areaName];
    case 'route':
      return [String(o.routeId), o.routeName];
    case 'person':
      return [o.msId, o.msName || o.msId];
    case 'day':
      return [o.day, o.day];
  }
}

/** Rows per group, sorted by label (days in order); the total row last. */
export function statistics(orders: Order[], by: GroupBy): { rows: StatRow[]; total: StatRow } {
  const rows = new Map<string, StatRow>();
  const empty = (key: string, label: string): StatRow => ({
    key,
    label,
    planned: 0,
    normal: 0,
    abnormal: 0,
    waiting: 0,
    reasons: { missed: 0, late: 0, outOfOrder: 0 },
  });
  const total = empty('total', '');
  for (const o of orders) {
    const [key, label] = keyOf(o, by);
    let r = rows.get(key);
    if (!r) rows.set(key, (r = empty(key, label)));
    for (const x of [r, total]) {
      x.planned++;
      if (o.state === 1) x.normal++;
      else if (o.state === 2) {
        x.abnormal++;
        for (const why of o.reasons ?? []) if (why in x.reasons) x.reasons[why]++;
      } else x.waiting++;
    }
  }
  return { rows: [...rows.values()].sort((a, b) => a.label.localeCompare(b.label)), total };
}

/** The share of judged orders that were normal, in percent (undefined before any was judged). */
export function normalRate(r: Pick<StatRow, 'normal' | 'abnormal'>): number | undefined {
  const judged = r.normal + r.abnormal;
  return judged === 0 ? undefined : Math.round((r.normal / judged) * 1000) / 10;
}
