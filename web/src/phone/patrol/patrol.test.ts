// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { mergeOrder, openOrders, tagValue, upcomingOrders, type Order } from './patrol';

const order = (id: number, start: number, end: number, state = 0, extra: Partial<Order> = {}): Order => ({
  orderId: id,
  planId: 1,
  planName: 'P',
  classSeq: 1,
  className: 'C',
  msId: '10000001',
  msName: 'T',
  areaId: 1,
  routeId: 1,
  routeName: 'R',
  areaName: 'A',
  judgedAt: 0,
  day: '2026-11-26',
  startTime: start,
  endTime: end,
  judgeTime: end + 30,
  state,
  reasons: [],
  total: 2,
  punched: 0,
  ...extra,
});

describe('patrol orders', () => {
  const list = [order(1, 0, 100), order(2, 200, 300), order(3, 0, 100, 1)];
  it('an order is open from its start to the end of its late grace, while it waits', () => {
    expect(openOrders(list, 50).map((o) => o.orderId)).toEqual([1]);
    expect(openOrders(list, 120).map((o) => o.orderId)).toEqual([1]); // late, still open
    expect(openOrders(list, 130).map((o) => o.orderId)).toEqual([]);
    expect(upcomingOrders(list, 50).map((o) => o.orderId)).toEqual([2]);
  });
  it('a punch answer replaces its order and keeps the points it does not carry', () => {
    const pts = [{ orderId: 1, seq: 1, pointId: 9, name: 'Gate', nfcValue: 'T', lat: 0, lng: 0, radius: 30, state: 0, punchTime: 0, method: '' }];
    const merged = mergeOrder([order(1, 0, 100, 0, { points: pts }), order(2, 0, 1)], order(1, 0, 100, 0, { punched: 1 }));
    expect(merged[0]!.punched).toBe(1);
    expect(merged[0]!.points).toBe(pts);
    expect(merged[1]!.orderId).toBe(2);
  });
});

describe('NFC tag value', () => {
  const text = (s: string) => ({ recordType: 'text', encoding: 'utf-8', data: new DataView(new TextEncoder().encode(s).buffer) });
  it('is the first text record, trimmed', () => {
    expect(tagValue({ records: [{ recordType: 'mime', data: null }, text(' NFC-1001 '), text('x')] }, '04:a2')).toBe('NFC-1001');
  });
  it('is the serial number of a tag without text', () => {
    expect(tagValue({ records: [] }, '04:a2:19')).toBe('04:a2:19');
  });
});
