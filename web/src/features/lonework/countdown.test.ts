// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { LONEWORK_EVENTS, loneworkKeys, type Plan } from './api';
import { checkinLeft, isStale, msLeft, nextCheckLeft, startsIn, toLocal, type LivePlan } from './countdown';
import { planActions } from './rows';

const plan = (patch: Partial<Plan> = {}): Plan => ({
  id: '8',
  msId: '10000101',
  msName: 'Unit 1',
  date: '2026-11-21',
  time: '14:30',
  sTime: Date.UTC(2026, 10, 21, 14, 30),
  eTime: Date.UTC(2026, 10, 21, 16, 0),
  duration: 90,
  interval: 30,
  countdown: 60,
  enabled: 1,
  status: 0,
  workState: 1,
  realStart: 1,
  realStop: 0,
  alarmCount: 0,
  nextCheck: 0,
  deadline: 0,
  serverTime: 0,
  ...patch,
});

describe('countdown math', () => {
  it('a server instant is moved to the local clock once, at receipt (skew does not matter)', () => {
    // server clock 10 s ahead of the browser: serverTime 1_010_000 received at local 1_000_000
    expect(toLocal(1_070_000, 1_010_000, 1_000_000)).toBe(1_060_000);
    expect(toLocal(0, 1_010_000, 1_000_000)).toBe(0);
    expect(msLeft(1_070_000, 1_010_000, 1_000_000, 1_000_000)).toBe(60_000);
    expect(msLeft(1_070_000, 1_010_000, 1_000_000, 1_045_500)).toBe(14_500);
    expect(msLeft(1_070_000, 1_010_000, 1_000_000, 1_100_000)).toBe(0);
  });

  it('check-in countdown while a prompt waits, else the next check, else the start', () => {
    const live = (p: Partial<Plan>, receivedAt = 500_000): LivePlan => ({ ...plan(p), receivedAt });
    const waiting = live({ deadline: 2_060_000, serverTime: 2_000_000, nextCheck: 3_800_000 });
    expect(checkinLeft(waiting, 510_000)).toBe(50_000);
    expect(nextCheckLeft(waiting, 510_000)).toBeNull();
    const between = live({ deadline: 0, serverTime: 2_000_000, nextCheck: 2_600_000 });
    expect(checkinLeft(between, 500_000)).toBeNull();
    expect(nextCheckLeft(between, 500_000)).toBe(600_000);
    const notYet = live({ workState: 0, sTime: 2_300_000, serverTime: 2_000_000 });
    expect(startsIn(notYet, 600_000)).toBe(200_000);
    expect(checkinLeft(notYet, 600_000)).toBeNull();
    expect(startsIn(live({ workState: 0, enabled: 0 }), 0)).toBeNull();
    expect(checkinLeft(live({ workState: 2, deadline: 5 }), 0)).toBeNull();
  });
});

describe('live plan rows', () => {
  it('a plan change or removal makes every plan list stale; an alarm also the alarm lists; other events nothing', () => {
    const plans = [['lonework', 'list']];
    expect(staleKeys(LONEWORK_EVENTS, 'lonework.state', plan())).toEqual(plans);
    expect(staleKeys(LONEWORK_EVENTS, 'lonework.removed', { ids: ['8'] })).toEqual(plans);
    expect(staleKeys(LONEWORK_EVENTS, 'lonework.alarm', {})).toEqual([...plans, ['lonework', 'alarms']]);
    expect(staleKeys(LONEWORK_EVENTS, 'lonework.alarmUpdated', {})).toEqual([...plans, ['lonework', 'alarms']]);
    expect(staleKeys(LONEWORK_EVENTS, 'sos.alarm', {})).toEqual([]);
    // what the page queries lies under what the events make stale
    expect(loneworkKeys.list({ queryDate: '2026-11-21' }).slice(0, 2)).toEqual(plans[0]);
    expect(loneworkKeys.alarms(['8']).slice(0, 2)).toEqual(['lonework', 'alarms']);
  });

  it('no edit while in progress, in alarm or over; no delete while in progress or in alarm', () => {
    expect(planActions(plan({ workState: 0, status: 0 }))).toEqual({ edit: true, toggle: true, remove: true, end: false });
    expect(planActions(plan({ workState: 1, status: 0 }))).toEqual({ edit: false, toggle: false, remove: false, end: true });
    expect(planActions(plan({ workState: 1, status: 1 })).remove).toBe(false);
    expect(planActions(plan({ workState: 2, status: 1 }))).toEqual({ edit: false, toggle: false, remove: false, end: false });
    expect(planActions(plan({ workState: 2, status: 2 }))).toEqual({ edit: false, toggle: false, remove: true, end: false });
  });
});

describe('stale rows', () => {
  const live = (p: Partial<Plan>): LivePlan => ({ ...plan(p), serverTime: 1_000_000, receivedAt: 1_000_000 });
  it('a waiting plan past its start, a prompt past its deadline, a check or an end that did not come', () => {
    expect(isStale(live({ workState: 0, sTime: 1_010_000 }), 1_014_000)).toBe(false);
    expect(isStale(live({ workState: 0, sTime: 1_010_000 }), 1_016_000)).toBe(true);
    expect(isStale(live({ workState: 0, enabled: 0, sTime: 1_010_000 }), 2_000_000)).toBe(false);
    expect(isStale(live({ workState: 1, deadline: 1_020_000, nextCheck: 9_000_000, eTime: 9_000_000 }), 1_026_000)).toBe(true);
    expect(isStale(live({ workState: 1, deadline: 0, nextCheck: 1_060_000, eTime: 9_000_000 }), 1_030_000)).toBe(false);
    expect(isStale(live({ workState: 1, deadline: 0, nextCheck: 1_060_000, eTime: 9_000_000 }), 1_066_000)).toBe(true);
    expect(isStale(live({ workState: 1, deadline: 0, nextCheck: 0, eTime: 1_100_000 }), 1_106_000)).toBe(true);
    expect(isStale(live({ workState: 2, eTime: 1 }), 9_000_000)).toBe(false);
  });
});
