// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SosAlarm } from './sos';
import type { LoneAlarm } from './lonework';
import {
  dismiss,
  emptyQueue,
  isRinging,
  loneKey,
  markMine,
  onLoneAlarm,
  onLoneUpdated,
  onOpenLoaded,
  onSosAlarm,
  onSosRealert,
  onSosUpdated,
  openAlarms,
  pendingCount,
  sosKey,
  type AlarmQueueState,
} from './queue';

const alarm = (id: string, state: 0 | 1 | 2 = 0, extra: Partial<SosAlarm> = {}): SosAlarm => ({
  id,
  msId: `1000010${id}`,
  msName: `Unit ${id}`,
  msType: '',
  type: '0',
  state,
  time: 1_000 * Number(id),
  lat: 41,
  lng: 29,
  responder: '',
  responderName: '',
  responseTime: 0,
  closer: '',
  closerName: '',
  closeTime: 0,
  closeKind: '',
  remark: '',
  ...extra,
});
const lone = (id: string, extra: Partial<LoneAlarm> = {}): LoneAlarm => ({
  id,
  workId: '8',
  msId: '10000101',
  msName: 'Unit 1',
  reason: 5,
  alarmTime: 5,
  remark: '',
  handler: '',
  handlerName: '',
  handleTime: 0,
  ...extra,
});
const none = () => false;
const run = (...steps: ((s: AlarmQueueState) => AlarmQueueState)[]) => steps.reduce((s, f) => f(s), emptyQueue());

describe('SOS alarms in the interrupt', () => {
  it('a new alarm queues, alerts and rings', () => {
    const s = onSosAlarm(emptyQueue(), alarm('1'));
    expect(s.queue).toEqual([sosKey('1')]);
    expect(s.alerts).toBe(1);
    expect(s.lastAlert).toBe('sos:1');
    expect(isRinging(s)).toBe(true);
    expect(pendingCount(s)).toBe(1);
  });

  it('several alarms queue in arrival order, each alerting once', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => onSosAlarm(x, alarm('2')), (x) => onSosAlarm(x, alarm('1')));
    expect(s.queue).toEqual(['sos:1', 'sos:2']);
    expect(s.alerts).toBe(2);
    expect(pendingCount(s)).toBe(2);
  });

  it('acknowledged elsewhere: leaves the queue and stops ringing', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => onSosUpdated(x, alarm('1', 1)));
    expect(s.queue).toEqual([]);
    expect(isRinging(s)).toBe(false);
    expect(openAlarms(s).map((a) => a.id)).toEqual(['1']); // still open
  });

  it('acknowledged here: stays queued (to locate, call, close) but stops ringing', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => markMine(x, '1', true), (x) => onSosUpdated(x, alarm('1', 1)));
    expect(s.queue).toEqual(['sos:1']);
    expect(isRinging(s)).toBe(false);
    expect(pendingCount(s)).toBe(0);
  });

  it('the sos.updated that beats the HTTP answer keeps the alarm queued for the window that acknowledged', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => markMine(x, '1', true), (x) => onSosUpdated(x, alarm('1', 1)), (x) => onSosUpdated(x, alarm('1', 1)));
    expect(s.queue).toEqual(['sos:1']);
  });

  it('a failed acknowledgement is undone: a later acknowledgement elsewhere removes it', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => markMine(x, '1', true), (x) => markMine(x, '1', false), (x) => onSosUpdated(x, alarm('1', 1)));
    expect(s.queue).toEqual([]);
  });

  it('closed: leaves the queue and the open list', () => {
    const s = run((x) => onSosAlarm(x, alarm('1')), (x) => markMine(x, '1', true), (x) => onSosUpdated(x, alarm('1', 1)), (x) => onSosUpdated(x, alarm('1', 2)));
    expect(s.queue).toEqual([]);
    expect(openAlarms(s)).toEqual([]);
    expect(s.mine).toEqual({});
  });

  it('a record never goes back: a replayed sos.alarm after its sos.updated changes nothing', () => {
    const s = run((x) => onSosUpdated(x, alarm('1', 1)), (x) => onSosAlarm(x, alarm('1', 0)));
    expect(s.queue).toEqual([]);
    expect(s.sos['1']!.state).toBe(1);
  });

  it('an SOS in state 0 cannot be put aside; an acknowledged one can', () => {
    let s = onSosAlarm(emptyQueue(), alarm('1'));
    s = dismiss(s, sosKey('1'));
    expect(s.queue).toEqual(['sos:1']);
    s = onSosUpdated(markMine(s, '1', true), alarm('1', 1));
    s = dismiss(s, sosKey('1'));
    expect(s.queue).toEqual([]);
    expect(openAlarms(s)).toHaveLength(1);
  });

  it('silence stops the ringing until the next alert; a re-alert rings again', () => {
    let s = onSosAlarm(emptyQueue(), alarm('1'));
    s = { ...s, silenced: true };
    expect(isRinging(s)).toBe(false);
    s = onSosRealert(s, alarm('1'));
    expect(isRinging(s)).toBe(true);
    expect(s.alerts).toBe(2);
    s = { ...s, silenced: true };
    s = onSosAlarm(s, alarm('2'));
    expect(isRinging(s)).toBe(true);
  });

  it('a re-alert of an alarm the console missed queues it', () => {
    const s = onSosRealert(emptyQueue(), alarm('7'));
    expect(s.queue).toEqual(['sos:7']);
    expect(isRinging(s)).toBe(true);
  });

  it('a re-alert of an alarm already acknowledged does nothing', () => {
    const s = run((x) => onSosUpdated(x, alarm('1', 1)), (x) => onSosRealert(x, alarm('1', 0)));
    expect(s.queue).toEqual([]);
    expect(s.alerts).toBe(0);
  });

  it('the open list loaded at start queues every unacknowledged alarm and alerts once', () => {
    const s = onOpenLoaded(emptyQueue(), [alarm('1'), alarm('2', 1), alarm('3')]);
    expect(s.queue).toEqual(['sos:1', 'sos:3']);
    expect(s.alerts).toBe(1);
    expect(openAlarms(s).map((a) => a.id)).toEqual(['3', '2', '1']);
  });

  it('after a reconnect, alarms no longer open were closed while away', () => {
    let s = run((x) => onSosAlarm(x, alarm('1')), (x) => onSosAlarm(x, alarm('2')));
    s = onOpenLoaded(s, [alarm('2')]);
    expect(s.queue).toEqual(['sos:2']);
    expect(s.sos['1']).toBeUndefined();
    expect(s.alerts).toBe(2); // nothing new: no extra alert
  });
});

describe('lone-work alarms in the interrupt', () => {
  it('queue and ring until handled', () => {
    let s = onLoneAlarm(emptyQueue(), lone('31'), none);
    expect(s.queue).toEqual([loneKey('31')]);
    expect(isRinging(s)).toBe(true);
    s = onLoneUpdated(s, lone('31', { remark: 'called him', handler: '10000001', handleTime: 9 }));
    expect(s.queue).toEqual([]);
    expect(isRinging(s)).toBe(false);
  });

  it('a handled or dismissed alarm (a replay after a reconnect) does not ring', () => {
    expect(onLoneAlarm(emptyQueue(), lone('31', { handleTime: 3, handler: 'x' }), none).queue).toEqual([]);
    expect(onLoneAlarm(emptyQueue(), lone('31'), (id) => id === '31').queue).toEqual([]);
  });

  it('can be put aside', () => {
    const s = dismiss(onLoneAlarm(emptyQueue(), lone('31'), none), loneKey('31'));
    expect(s.queue).toEqual([]);
    expect(s.lone).toEqual({});
  });

  it('mixed queue: ringing follows what still demands an answer', () => {
    let s = run((x) => onSosAlarm(x, alarm('1')), (x) => onLoneAlarm(x, lone('31'), none));
    expect(pendingCount(s)).toBe(2);
    s = dismiss(s, loneKey('31'));
    s = onSosUpdated(markMine(s, '1', true), alarm('1', 1));
    expect(isRinging(s)).toBe(false);
    expect(s.queue).toEqual(['sos:1']);
  });
});
