// Time-range rules of spec §5 (and docs/safety.md findSos): start and end required, start not after end, both in
// one calendar month of the customer's zone (cross-month queries are not supported; the first instant of the
// next month is accepted as the end of a whole month).
import type { Dayjs } from '../../shared/utils/dayjs';
import { wallNow, wallToMs } from './zone';

export type RangeError = 'rangeRequired' | 'rangeOrder' | 'crossMonth';

/** Checks a range of wall values; null when it is valid. */
export function checkRange(start: Dayjs | null | undefined, end: Dayjs | null | undefined): RangeError | null {
  if (!start || !end) return 'rangeRequired';
  if (start.valueOf() > end.valueOf()) return 'rangeOrder';
  const sameMonth = start.year() === end.year() && start.month() === end.month();
  const nextMonthStart = start.startOf('month').add(1, 'month');
  if (!sameMonth && end.valueOf() !== nextMonthStart.valueOf()) return 'crossMonth';
  return null;
}

/** The default range: from the start of this month to the end of today (customer's zone). */
export function defaultRange(now: Dayjs = wallNow()): [Dayjs, Dayjs] {
  return [now.startOf('month'), now.endOf('day')];
}

/** The range as the server wants it (ms, inclusive). */
export function rangeParams(r: [Dayjs, Dayjs], offsetMs?: number): { sTime: number; eTime: number } {
  return { sTime: wallToMs(r[0], offsetMs), eTime: wallToMs(r[1], offsetMs) };
}

/** Server codes of a time-range refusal and the matching message key. */
export const RANGE_CODES: Record<string, RangeError> = { '93': 'rangeOrder', '95': 'crossMonth' };
