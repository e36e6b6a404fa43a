// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SosReportRow } from '../../shared/alarms/sos';
import { byDay, byTerminal } from './aggregate';

const row = (msId: string, day: string, p: Partial<SosReportRow> = {}): SosReportRow => ({
  msId,
  msName: `Unit ${msId}`,
  day,
  total: 2,
  sending: 0,
  acknowledged: 1,
  closed: 1,
  canceled: 0,
  avgResponse: 1000,
  maxResponse: 1500,
  ...p,
});

describe('SOS report aggregation', () => {
  it('sums per day in calendar order, weighting the average by responded alarms', () => {
    const d = byDay([row('1', '2026-11-02'), row('2', '2026-11-01', { total: 3, sending: 1, closed: 2, canceled: 1, avgResponse: 4000, maxResponse: 9000 }), row('3', '2026-11-02', { avgResponse: 3000 })]);
    expect(d.map((x) => x.day)).toEqual(['2026-11-01', '2026-11-02']);
    expect(d[0]!.totals).toMatchObject({ total: 3, sending: 1, canceled: 1, avgResponse: 4000, maxResponse: 9000 });
    expect(d[1]!.totals).toMatchObject({ total: 4, acknowledged: 2, closed: 2, avgResponse: 2000, maxResponse: 1500 });
  });
  it('per terminal, most alarms first', () => {
    const t = byTerminal([row('1', '2026-11-01'), row('2', '2026-11-01', { total: 5 }), row('1', '2026-11-02')]);
    expect(t.map((x) => [x.msId, x.totals.total])).toEqual([
      ['2', 5],
      ['1', 4],
    ]);
  });
});
