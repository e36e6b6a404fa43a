// The SOS report (findSosReport rows: one terminal on one day) summed per day and per terminal for the charts.
import type { SosReportRow } from '../../shared/alarms/sos';

/** A report row's counts; avgResponse is the mean response delay (ms) over the responded alarms, weighted by how many each row responded to. */
export type Totals = Pick<SosReportRow, 'total' | 'sending' | 'acknowledged' | 'closed' | 'canceled' | 'avgResponse' | 'maxResponse'>;

interface Acc extends Totals {
  responded: number;
}

const zero = (): Acc => ({ total: 0, sending: 0, acknowledged: 0, closed: 0, canceled: 0, avgResponse: 0, maxResponse: 0, responded: 0 });

function add(acc: Acc, r: SosReportRow): Acc {
  // Responded alarms: everything a dispatcher acknowledged or closed (terminal cancels excluded).
  const responded = Math.max(0, r.total - r.sending - r.canceled);
  const sum = acc.avgResponse * acc.responded + r.avgResponse * responded;
  const n = acc.responded + responded;
  return {
    total: acc.total + r.total,
    sending: acc.sending + r.sending,
    acknowledged: acc.acknowledged + r.acknowledged,
    closed: acc.closed + r.closed,
    canceled: acc.canceled + r.canceled,
    avgResponse: n ? Math.round(sum / n) : 0,
    maxResponse: Math.max(acc.maxResponse, r.maxResponse),
    responded: n,
  };
}

function group(rows: SosReportRow[], key: (r: SosReportRow) => string): Map<string, Acc> {
  const m = new Map<string, Acc>();
  for (const r of rows) m.set(key(r), add(m.get(key(r)) ?? zero(), r));
  return m;
}

const strip = ({ responded: _r, ...t }: Acc): Totals => t;

/** Per day, in calendar order. */
export function byDay(rows: SosReportRow[]): { day: string; totals: Totals }[] {
  return [...group(rows, (r) => r.day)].sort(([a], [b]) => a.localeCompare(b)).map(([day, acc]) => ({ day, totals: strip(acc) }));
}

/** Per terminal, most alarms first. */
export function byTerminal(rows: SosReportRow[]): { msId: string; msName: string; totals: Totals }[] {
  const names = new Map(rows.map((r) => [r.msId, r.msName]));
  return [...group(rows, (r) => r.msId)]
    .map(([msId, acc]) => ({ msId, msName: names.get(msId) || msId, totals: strip(acc) }))
    .sort((a, b) => b.totals.total - a.totals.total || a.msId.localeCompare(b.msId));
}
