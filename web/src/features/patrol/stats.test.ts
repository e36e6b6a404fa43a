// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Order } from './api';
import { gridRange, monthGrid } from './calendar';
import { normalRate, statistics } from './stats';

const order = (o: Partial<Order>): Order => ({
  orderId: 1,
  planId: 1,
  planName: 'P',
  classSeq: 1,
  className: 'C',
  day: '2026-11-26',
  msId: '1',
  msName: 'Unit 1',
  areaId: 1,
  areaName: 'North',
  routeId: 1,
  routeName: 'R1',
  startTime: 0,
  endTime: 0,
  judgeTime: 0,
  state: 0,
  reasons: [],
  judgedAt: 0,
  total: 3,
  punched: 0,
  ...o,
});

const orders = [
  order({ state: 1 }),
  order({ state: 2, reasons: ['missed', 'late'] }),
  order({ state: 2, reasons: ['outOfOrder'], areaId: 2, areaName: 'South', msId: '2', msName: 'Unit 2', day: '2026-11-27' }),
  order({ state: 0, areaId: 2, areaName: 'South', day: '2026-11-27' }),
];

describe('patrol statistics', () => {
  it('counts planned, normal, abnormal and waiting orders per area with the reasons', () => {
    const { rows, total } = statistics(orders, 'area');
    expect(rows.map((r) => [r.label, r.planned, r.normal, r.abnormal, r.waiting])).toEqual([
      ['North', 2, 1, 1, 0],
      ['South', 2, 0, 1, 1],
    ]);
    expect(rows[0]!.reasons).toEqual({ missed: 1, late: 1, outOfOrder: 0 });
    expect([total.planned, total.normal, total.abnormal, total.waiting]).toEqual([4, 1, 2, 1]);
  });
  it('groups per person and per day', () => {
    expect(statistics(orders, 'person').rows.map((r) => [r.label, r.planned])).toEqual([
      ['Unit 1', 3],
      ['Unit 2', 1],
    ]);
    expect(statistics(orders, 'day').rows.map((r) => r.label)).toEqual(['2026-11-26', '2026-11-27']);
  });
  it('the normal rate counts only judged orders', () => {
    expect(normalRate({ normal: 1, abnormal: 3 })).toBe(25);
    expect(normalRate({ normal: 0, abnormal: 0 })).toBeUndefined();
  });
});

describe('patrol calendar', () => {
  it('is 42 cells from the Monday on or before the 1st', () => {
    expect(gridRange('2026-11')).toEqual({ first: '2026-10-26', last: '2026-12-06' });
    expect(gridRange('2026-06-15')).toEqual({ first: '2026-06-01', last: '2026-07-12' }); // June 1st 2026 is a Monday
  });
  it('counts each day’s orders by state', () => {
    const cells = monthGrid('2026-11', orders);
    expect(cells).toHaveLength(42);
    const d26 = cells.find((c) => c.day === '2026-11-26')!;
    expect([d26.normal, d26.abnormal, d26.waiting, d26.inMonth]).toEqual([1, 1, 0, true]);
    expect(cells[0]!.inMonth).toBe(false);
  });
});
