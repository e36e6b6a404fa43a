// @vitest-environment node
import { describe, expect, it } from 'vitest';
import dayjs from '../../shared/utils/dayjs';
import { fieldOfCode, plannedStart, validatePlan, type PlanForm } from './validate';

const UTC = 0;
const NOW = Date.UTC(2026, 10, 21, 12, 0);
const good = (patch: Partial<PlanForm> = {}): PlanForm => ({
  msIds: ['10000101'],
  date: dayjs('2026-11-21'),
  time: dayjs('2026-11-21 14:30'),
  duration: 90,
  interval: 30,
  countdown: 60,
  enabled: true,
  ...patch,
});
const codes = (f: PlanForm, editing = false) => validatePlan(f, NOW, { editing, offsetMs: UTC }).map((p) => p.code);

describe('lone worker rules (spec §5)', () => {
  it('a good plan passes', () => {
    expect(codes(good())).toEqual([]);
  });
  it('1 to 4 terminals', () => {
    expect(codes(good({ msIds: [] }))).toEqual(['80']);
    expect(codes(good({ msIds: ['1', '2', '3', '4'] }))).toEqual([]);
    expect(codes(good({ msIds: ['1', '2', '3', '4', '5'] }))).toEqual(['81']);
    expect(codes(good({ msIds: [] }), true)).toEqual([]); // an edit keeps its terminal
  });
  it('date and time required', () => {
    expect(codes(good({ date: null }))).toEqual(['86']);
    expect(codes(good({ time: null }))).toEqual(['86']);
  });
  it('duration required, whole minutes, at most one day; begin ≠ end', () => {
    expect(codes(good({ duration: null }))).toContain('82');
    expect(codes(good({ duration: 1.5, interval: 1 }))).toEqual(['82']);
    expect(codes(good({ duration: 0 }))).toContain('87');
    expect(codes(good({ duration: 1440 }))).toEqual([]);
    expect(codes(good({ duration: 1441 }))).toEqual(['83']);
  });
  it('interval required and not above the duration', () => {
    expect(codes(good({ interval: null }))).toEqual(['84']);
    expect(codes(good({ interval: 0 }))).toEqual(['84']);
    expect(codes(good({ interval: 90 }))).toEqual([]);
    expect(codes(good({ interval: 91 }))).toEqual(['85']);
  });
  it('countdown 10–600 s and not above the interval', () => {
    expect(codes(good({ countdown: null }))).toEqual([]); // server default 60
    expect(codes(good({ countdown: 9 }))).toEqual(['countdown']);
    expect(codes(good({ countdown: 600 }))).toEqual([]);
    expect(codes(good({ countdown: 601 }))).toEqual(['countdown']);
    expect(codes(good({ interval: 1, countdown: 61 }))).toEqual(['countdown']);
    expect(codes(good({ interval: 1, countdown: 60 }))).toEqual([]);
  });
  it('a window that would end in the past is refused; one that started already is fine', () => {
    expect(codes(good({ time: dayjs('2026-11-21 10:00'), duration: 120 }))).toEqual(['97']);
    expect(codes(good({ time: dayjs('2026-11-21 11:59'), duration: 2, interval: 1 }))).toEqual([]);
  });
  it('reports every broken rule with its field', () => {
    const p = validatePlan(good({ msIds: [], date: null, duration: 2000, interval: null }), NOW, { offsetMs: UTC });
    expect(p).toEqual([
      { field: 'msIds', code: '80' },
      { field: 'date', code: '86' },
      { field: 'duration', code: '83' },
      { field: 'interval', code: '84' },
    ]);
  });
  it('the start is the date and time in the customer zone', () => {
    expect(plannedStart(good(), 3 * 3_600_000)).toBe(Date.UTC(2026, 10, 21, 11, 30));
    expect(plannedStart(good({ time: null }))).toBeNull();
  });
  it('server codes land under their field', () => {
    expect(fieldOfCode('89')).toBe('msIds');
    expect(fieldOfCode('85')).toBe('interval');
    expect(fieldOfCode('97')).toBe('date');
    expect(fieldOfCode('88')).toBeNull();
  });
});
