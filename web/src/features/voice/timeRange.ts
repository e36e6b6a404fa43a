// Time range rules of spec §5 for call-record queries (docs/voice.md §6): start and end required, start not after
// end, at most 31 days, and within one calendar month of the customer's time zone ("cross-month not supported").

export const MAX_RANGE_DAYS = 31;
const DAY = 86_400_000;

export type RangeError = 'required' | 'order' | 'tooLong' | 'crossMonth';

/** Year·12+month of an instant in a zone `tzMs` ahead of UTC. */
function monthIndex(t: number, tzMs: number): number {
  const d = new Date(t + tzMs);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** The first reason the range is refused, or undefined. */
export function checkRange(start: number | undefined | null, end: number | undefined | null, tzMs = 0): RangeError | undefined {
  if (start == null || end == null || !Number.isFinite(start) || !Number.isFinite(end)) return 'required';
  if (start > end) return 'order';
  if (end - start > MAX_RANGE_DAYS * DAY) return 'tooLong';
  if (monthIndex(start, tzMs) !== monthIndex(end, tzMs)) return 'crossMonth';
  return undefined;
}

/** Start of the day of `now` in the customer's zone, as UTC ms. */
export function startOfDay(now: number, tzMs = 0): number {
  const local = now + tzMs;
  return local - (((local % DAY) + DAY) % DAY) - tzMs;
}

/** Start of the month of `now` in the customer's zone, as UTC ms. */
export function startOfMonth(now: number, tzMs = 0): number {
  const d = new Date(now + tzMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - tzMs;
}
