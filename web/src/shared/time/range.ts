// The time-range rules of spec §5, the same as the server's (internal/platform/timerange Check): start and end
// required, start not after end ("93"), at most maxDays long when maxDays > 0 ("94"), both ends in one calendar
// month of the customer's time zone ("95"; an end exactly at the first instant of the next month still counts as
// the earlier month, so a whole month is [1st 00:00, next 1st 00:00]). Every search and report screen checks its
// range here before the query leaves the console; each screen words the problem in its own namespace.
import type { Dayjs } from '../utils/dayjs';
import { customerOffsetMs, msToWall, wallToMs } from './zone';

export type RangeProblem = 'required' | 'order' | 'tooLong' | 'crossMonth';

/** The server's code for each problem ("start and end required" is a plain 400 on the parameter). */
export const RANGE_CODES: Record<RangeProblem, string> = { required: '400', order: '93', tooLong: '94', crossMonth: '95' };

/** The problem a server refusal code stands for, if it is a time-range code. */
export function rangeProblemOf(code: string): RangeProblem | undefined {
  return (Object.keys(RANGE_CODES) as RangeProblem[]).find((p) => p !== 'required' && RANGE_CODES[p] === code);
}

/** The longest range one calendar month holds (the server's timerange.Month). */
export const MONTH_DAYS = 31;
/** Track queries span at most a week (docs/geo.md "Time ranges"). */
export const TRACK_MAX_DAYS = 7;
const DAY = 86_400_000;

/** Year·12+month of an instant in the zone offsetMs ahead of UTC. */
function monthIndex(ms: number, offsetMs: number): number {
  const d = new Date(ms + offsetMs);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function isMonthStart(ms: number, offsetMs: number): boolean {
  const d = new Date(ms + offsetMs);
  return d.getUTCDate() === 1 && d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
}

/** The first rule a range of instants (ms) breaks, or undefined; maxDays 0 leaves only the month rule. */
export function checkRange(start: number | null | undefined, end: number | null | undefined, maxDays = 0, offsetMs = 0): RangeProblem | undefined {
  if (start == null || end == null || !Number.isFinite(start) || !Number.isFinite(end)) return 'required';
  if (start > end) return 'order';
  if (maxDays > 0 && end - start > maxDays * DAY) return 'tooLong';
  const sm = monthIndex(start, offsetMs);
  const em = monthIndex(end, offsetMs);
  if (sm !== em && !(em === sm + 1 && isMonthStart(end, offsetMs))) return 'crossMonth';
  return undefined;
}

export type WallRange = [Dayjs, Dayjs];

/** Checks a range of wall values (see zone.ts) in the customer's zone. */
export function checkWallRange(r: [Dayjs | null | undefined, Dayjs | null | undefined] | null | undefined, maxDays = 0, offsetMs = customerOffsetMs()): RangeProblem | undefined {
  if (!r || !r[0] || !r[1]) return 'required';
  return checkRange(wallToMs(r[0], offsetMs), wallToMs(r[1], offsetMs), maxDays, offsetMs);
}

/** The default range: from the start of this month to the end of today, in the customer's zone. */
export function defaultWallRange(now = Date.now(), offsetMs = customerOffsetMs()): WallRange {
  const w = msToWall(now, offsetMs);
  return [w.startOf('month'), w.endOf('day')];
}

/** A wall range as the server wants it: inclusive ms. */
export function rangeToMs(r: WallRange, offsetMs = customerOffsetMs()): { sTime: number; eTime: number } {
  return { sTime: wallToMs(r[0], offsetMs), eTime: wallToMs(r[1], offsetMs) };
}

/** Start of the day of `now` in the customer's zone, as UTC ms. */
export function startOfDay(now: number, offsetMs = 0): number {
  const local = now + offsetMs;
  return local - (((local % DAY) + DAY) % DAY) - offsetMs;
}

/** Start of the month of `now` in the customer's zone, as UTC ms. */
export function startOfMonth(now: number, offsetMs = 0): number {
  const d = new Date(now + offsetMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - offsetMs;
}
