import { describe, expect, it } from 'vitest';
import dayjs from '../../shared/utils/dayjs';
import { checkRange, defaultRange, rangeParams } from './timeRange';
import { clock, msToWall, wallToMs } from './zone';
import { mapLink } from './hooks';
import { matchesQuery, patchPage, responseDelay } from './history';
import type { SosAlarm } from './api';

const d = (s: string) => dayjs(s);

describe('time range (spec §5)', () => {
  it('start and end are required', () => {
    expect(checkRange(null, d('2026-11-02'))).toBe('rangeRequired');
    expect(checkRange(d('2026-11-02'), undefined)).toBe('rangeRequired');
  });
  it('start not after end', () => {
    expect(checkRange(d('2026-11-03'), d('2026-11-02'))).toBe('rangeOrder');
    expect(checkRange(d('2026-11-02 10:00'), d('2026-11-02 10:00'))).toBeNull();
  });
  it('one calendar month; the first instant of the next month closes a whole month', () => {
    expect(checkRange(d('2026-11-01'), d('2026-11-30 23:59'))).toBeNull();
    expect(checkRange(d('2026-11-01'), d('2026-12-01 00:00'))).toBeNull();
    expect(checkRange(d('2026-11-20'), d('2026-12-01 00:01'))).toBe('crossMonth');
    expect(checkRange(d('2026-12-20'), d('2027-01-05'))).toBe('crossMonth');
  });
  it('the default range is this month up to the end of today, and valid', () => {
    const [a, b] = defaultRange(d('2026-11-21 14:30'));
    expect(a.format('YYYY-MM-DD HH:mm')).toBe('2026-11-01 00:00');
    expect(b.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-21 23:59:59');
    expect(checkRange(a, b)).toBeNull();
  });
});

describe("customer's time zone", () => {
  it('wall values convert both ways whatever the browser zone', () => {
    const istanbul = 3 * 3_600_000;
    const wall = d('2026-11-21 14:30');
    const ms = wallToMs(wall, istanbul);
    expect(ms).toBe(Date.UTC(2026, 10, 21, 11, 30));
    expect(msToWall(ms, istanbul).format('YYYY-MM-DD HH:mm')).toBe('2026-11-21 14:30');
    expect(rangeParams([d('2026-11-01'), d('2026-11-30 23:59:59')], istanbul)).toEqual({ sTime: Date.UTC(2026, 9, 31, 21), eTime: Date.UTC(2026, 10, 30, 20, 59, 59) });
  });
  it('clock formats spans', () => {
    expect(clock(65_000)).toBe('01:05');
    expect(clock(3_725_000)).toBe('1:02:05');
    expect(clock(-5)).toBe('00:00');
  });
});

describe('alarm history kept live', () => {
  const a = (id: string, time: number, state: 0 | 1 | 2, msId = '10000101'): SosAlarm => ({ id, msId, msName: 'U', type: '0', state, time, lat: null, lng: null, responder: '', responderName: '', responseTime: 0, closer: '', closerName: '', closeTime: 0, closeKind: '', remark: '' });
  const q = { sTime: 100, eTime: 1000, pageNo: 1, pageSize: 2 };

  it('replaces a listed alarm, ignores an older copy', () => {
    const page = { total: 1, list: [a('1', 500, 1)] };
    expect(patchPage(page, a('1', 500, 2), q).list[0]!.state).toBe(2);
    expect(patchPage(page, a('1', 500, 0), q)).toBe(page);
  });
  it('drops a listed alarm that leaves the state filter', () => {
    const page = { total: 1, list: [a('1', 500, 0)] };
    expect(patchPage(page, a('1', 500, 1), { ...q, state: '0' })).toEqual({ total: 0, list: [] });
  });
  it('puts a new matching alarm first on page 1 only', () => {
    const page = { total: 2, list: [a('2', 600, 0), a('1', 500, 0)] };
    const next = patchPage(page, a('3', 700, 0), q);
    expect(next.list.map((x) => x.id)).toEqual(['3', '2']);
    expect(next.total).toBe(3);
    expect(patchPage(page, a('3', 700, 0), { ...q, pageNo: 2 })).toBe(page);
    expect(patchPage(page, a('3', 7000, 0), q)).toBe(page); // out of range
    expect(matchesQuery(a('3', 700, 0, '10000102'), { ...q, msIds: '10000101' })).toBe(false);
  });
  it('response delay', () => {
    expect(responseDelay({ ...a('1', 1000, 1), responseTime: 9200 })).toBe(8200);
    expect(responseDelay(a('1', 1000, 0))).toBe(0);
  });
});

describe('map link contract', () => {
  it('focus, sos id and position', () => {
    expect(mapLink(false, '10000101', { sos: '17', lat: 41.5, lng: 29.25 })).toBe('/monitoring?focus=10000101&sos=17&lat=41.5&lng=29.25');
    expect(mapLink(true, '10000101')).toBe('/monitoring-child?focus=10000101');
  });
});
