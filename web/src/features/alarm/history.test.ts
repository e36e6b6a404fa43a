// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { mapLink } from './hooks';
import { historyEvents, matchesQuery, patchPage, responseDelay } from './history';
import { sosKeys, type SosAlarm } from '../../shared/alarms/sos';
import type { Page } from '../../shared/http/createClient';
import { livePatches, staleKeys } from '../../shared/socket/useLiveQueries';

describe('alarm history kept live', () => {
  const a = (id: string, time: number, state: 0 | 1 | 2, msId = '10000101'): SosAlarm => ({ id, msId, msName: 'U', msType: '', type: '0', state, time, lat: null, lng: null, responder: '', responderName: '', responseTime: 0, closer: '', closerName: '', closeTime: 0, closeKind: '', remark: '' });
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
  it('patches the shown page from sos.alarm and sos.updated (as the server sends them), searching nothing again', () => {
    const events = historyEvents(q);
    const page = { total: 1, list: [a('1', 500, 0)] };
    const after = (type: string, data: unknown, p: Page<SosAlarm> | undefined) => {
      const patches = livePatches(events, type, data);
      expect(patches.map((x) => x.queryKey)).toEqual([sosKeys.find(q)]);
      return patches[0]!.update(p) as Page<SosAlarm> | undefined;
    };
    const raised = after('sos.alarm', { ...a('2', 600, 0), id: 2, state: '0', time: '600' }, page);
    expect(raised).toEqual({ total: 2, list: [a('2', 600, 0), a('1', 500, 0)] });
    expect(after('sos.updated', a('1', 500, 2), page)!.list[0]!.state).toBe(2);
    expect(after('sos.updated', a('1', 500, 2), undefined)).toBeUndefined(); // nothing cached: nothing written
    expect(staleKeys(events, 'sos.alarm', a('2', 600, 0))).toEqual([]);
    expect(livePatches(events, 'sos.realert', a('1', 500, 0))).toEqual([]);
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
