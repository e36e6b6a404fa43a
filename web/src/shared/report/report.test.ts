import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { msToWall } from '../time/zone';
import { MONTH_DAYS, rangeToMs } from '../time/range';
import { anyRange, monthRule, rangePresets, someRange, useLiveReport } from './ReportShell';
import { dayBars, daysBetween, rangeDays, rankBars } from './charts';

const wall = (s: string) => msToWall(Date.parse(`${s}Z`), 0);
const fmt = (r: [{ format: (f: string) => string }, { format: (f: string) => string }]) => `${r[0].format('MM-DD HH:mm')} ~ ${r[1].format('MM-DD HH:mm')}`;

describe('range presets', () => {
  it('are whole days ending today, this month from its first day', () => {
    const p = Object.fromEntries(rangePresets(monthRule(MONTH_DAYS), wall('2026-11-20T15:30:00')).map(([k, r]) => [k, fmt(r)]));
    expect(p).toEqual({
      today: '11-20 00:00 ~ 11-20 23:59',
      yesterday: '11-19 00:00 ~ 11-19 23:59',
      last7: '11-14 00:00 ~ 11-20 23:59',
      month: '11-01 00:00 ~ 11-20 23:59',
    });
  });

  it('leave out what the range rules refuse: the last 7 days across a month', () => {
    expect(rangePresets(monthRule(MONTH_DAYS), wall('2026-11-03T08:00:00')).map(([k]) => k)).toEqual(['today', 'yesterday', 'month']);
    expect(rangePresets(monthRule(MONTH_DAYS), wall('2026-11-01T08:00:00')).map(([k]) => k)).toEqual(['today', 'yesterday', 'month']);
  });

  it('are all offered when the page takes any range', () => {
    expect(rangePresets(anyRange, wall('2026-11-03T08:00:00')).map(([k]) => k)).toEqual(['today', 'yesterday', 'last7', 'month']);
  });
});

describe('a live report (no search button)', () => {
  const nov = [wall('2026-11-01T00:00:00'), wall('2026-11-20T23:59:00')] as const;
  const across = [wall('2026-10-25T00:00:00'), wall('2026-11-02T00:00:00')] as const;

  it('follows its filters at once and goes back to the first page', () => {
    const { result } = renderHook(() => useLiveReport({ types: [] as number[], account: '' }));
    expect(result.current.query).toEqual({ types: [], account: '' }); // no range: everything
    act(() => result.current.pagination(100).onChange(3, 20));
    act(() => result.current.change({ account: '10000143' }));
    expect(result.current.query).toEqual({ types: [], account: '10000143' });
    expect(result.current.filter.account).toBe('10000143');
    expect(result.current.page.pageNo).toBe(1);
    act(() => result.current.setRange([...nov]));
    expect(result.current.query).toEqual({ types: [], account: '10000143', ...rangeToMs([...nov]) });
  });

  it('takes a range its rule allows, and keeps the last one taken while the edited one is refused', () => {
    const { result } = renderHook(() => useLiveReport({ by: 'area' }, { rule: someRange, range: () => [...nov] }));
    act(() => result.current.setRange([...across])); // across months: patrol statistics take it
    expect(result.current.query).toEqual({ by: 'area', ...rangeToMs([...across]) });
    act(() => result.current.setRange(null));
    expect(result.current.rangeError).toBe('required');
    expect(result.current.query).toEqual({ by: 'area', ...rangeToMs([...across]) });
    const month = renderHook(() => useLiveReport({}, { rule: monthRule(), range: () => [...nov] }));
    act(() => month.result.current.setRange([...across]));
    expect(month.result.current.rangeError).toBe('crossMonth');
    expect(month.result.current.query).toEqual(rangeToMs([...nov]));
  });
});

describe('report charts', () => {
  it('label days MM-DD and show a legend only for stacked series', () => {
    const one = dayBars(['2026-11-01', '2026-11-02'], [{ name: 'talk', color: '#000', data: [1, 2] }], 'min') as Record<string, unknown>;
    expect(one.xAxis).toEqual({ type: 'category', data: ['11-01', '11-02'] });
    expect(one.legend).toBeUndefined();
    const two = rankBars(['a', 'b'], [{ name: 'x', color: '#000', data: [1, 2], stack: 's' }, { name: 'y', color: '#111', data: [3, 4], stack: 's' }]) as Record<string, unknown>;
    expect(two.legend).toEqual({ top: 0 });
    expect((two.series as { stack: string }[]).map((s) => s.stack)).toEqual(['s', 's']);
    expect(two.yAxis).toEqual({ type: 'category', inverse: true, data: ['a', 'b'] });
  });
});

describe('the days of a range', () => {
  it('lists every day across a month and a year end, none for a reversed range', () => {
    expect(daysBetween('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
    expect(daysBetween('2026-12-30', '2027-01-01')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(daysBetween('2026-11-02', '2026-11-01')).toEqual([]);
  });
  it("takes a report's range as days of the customer's zone", () => {
    expect(rangeDays(rangeToMs([wall('2026-11-29T00:00:00'), wall('2026-12-01T23:59:59')]))).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
  });
});
