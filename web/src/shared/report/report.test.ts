import { describe, expect, it } from 'vitest';
import { msToWall } from '../time/zone';
import { MONTH_DAYS } from '../time/range';
import { rangePresets } from './ReportShell';
import { dayBars, rankBars } from './charts';

const wall = (s: string) => msToWall(Date.parse(`${s}Z`), 0);
const fmt = (r: [{ format: (f: string) => string }, { format: (f: string) => string }]) => `${r[0].format('MM-DD HH:mm')} ~ ${r[1].format('MM-DD HH:mm')}`;

describe('range presets', () => {
  it('are whole days ending today, this month from its first day', () => {
    const p = Object.fromEntries(rangePresets(MONTH_DAYS, wall('2026-11-20T15:30:00')).map(([k, r]) => [k, fmt(r)]));
    expect(p).toEqual({
      today: '11-20 00:00 ~ 11-20 23:59',
      yesterday: '11-19 00:00 ~ 11-19 23:59',
      last7: '11-14 00:00 ~ 11-20 23:59',
      month: '11-01 00:00 ~ 11-20 23:59',
    });
  });

  it('leave out what the range rules refuse: the last 7 days across a month', () => {
    expect(rangePresets(MONTH_DAYS, wall('2026-11-03T08:00:00')).map(([k]) => k)).toEqual(['today', 'yesterday', 'month']);
    expect(rangePresets(MONTH_DAYS, wall('2026-11-01T08:00:00')).map(([k]) => k)).toEqual(['today', 'yesterday', 'month']);
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
