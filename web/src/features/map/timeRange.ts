// Time-range checks of spec §5 before a query leaves the console (the server answers the same with codes 93–95,
// docs/geo.md "Time ranges"): start and end required, start not after end, at most maxDays, one calendar month of
// the customer's time zone (an end exactly at 00:00 of the next month still counts as the earlier month).

export type RangeProblem = 'required' | 'order' | 'tooLong' | 'crossMonth';
export const TRACK_MAX_DAYS = 7;
export const ALARM_MAX_DAYS = 31;
const DAY = 86_400_000;

/** Year and month of an instant in a zone given as an offset from UTC in ms. */
function monthOf(ms: number, tzOffsetMs: number): string {
  const d = new Date(ms + tzOffsetMs);
  return `${d.getUTCFullYear()}-${d.getUTCMonth()}`;
}

function isMonthStart(ms: number, tzOffsetMs: number): boolean {
  const d = new Date(ms + tzOffsetMs);
  return d.getUTCDate() === 1 && d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
}

export function checkRange(start: number | undefined, end: number | undefined, maxDays: number, tzOffsetMs: number): RangeProblem | null {
  if (start === undefined || end === undefined || !Number.isFinite(start) || !Number.isFinite(end)) return 'required';
  if (start > end) return 'order';
  if (end - start > maxDays * DAY) return 'tooLong';
  const effectiveEnd = end > start && isMonthStart(end, tzOffsetMs) ? end - 1 : end;
  if (monthOf(start, tzOffsetMs) !== monthOf(effectiveEnd, tzOffsetMs)) return 'crossMonth';
  return null;
}

/** The server's code for each problem. */
export const RANGE_CODES: Record<RangeProblem, string> = { required: '400', order: '93', tooLong: '94', crossMonth: '95' };
