// Time ranges of findSms, findMessageData and mediaLib/list (docs/messages.md "Time ranges", spec §5): start and
// end required, start not after end ("93"), at most 31 days ("94"), inside one calendar month of the customer's
// time zone ("95"; the first instant of the next month is accepted as the end of the whole month).
//
// The pickers work on "wall" values: dayjs objects in the browser's zone whose fields are the customer's
// wall-clock fields, so a dispatcher sees the customer's days whatever the browser's zone is.
import dayjs, { type Dayjs } from '../../shared/utils/dayjs';
import { useSession } from '../../shared/session';

export const MAX_RANGE_DAYS = 31;
const DAY = 86_400_000;

export type RangeError = 'required' | '93' | '94' | '95';

export function customerOffsetMs(): number {
  return useSession.getState().session?.timeZoneMs ?? 0;
}

/** The instant (ms) of a wall-clock value in the zone offsetMs ahead of UTC. */
export function wallToMs(d: Dayjs, offsetMs = customerOffsetMs()): number {
  return Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second(), d.millisecond()) - offsetMs;
}

/** The wall-clock value of an instant in the zone offsetMs ahead of UTC. */
export function msToWall(ms: number, offsetMs = customerOffsetMs()): Dayjs {
  const u = new Date(ms + offsetMs);
  return dayjs(new Date(u.getUTCFullYear(), u.getUTCMonth(), u.getUTCDate(), u.getUTCHours(), u.getUTCMinutes(), u.getUTCSeconds(), u.getUTCMilliseconds()));
}

function monthIndex(ms: number, offsetMs: number): number {
  const d = new Date(ms + offsetMs);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function isMonthStart(ms: number, offsetMs: number): boolean {
  const d = new Date(ms + offsetMs);
  return d.getUTCDate() === 1 && d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
}

/** The first reason a range of instants is refused (the server's code), or undefined. */
export function checkRange(start: number | null | undefined, end: number | null | undefined, offsetMs = 0): RangeError | undefined {
  if (start == null || end == null || !Number.isFinite(start) || !Number.isFinite(end)) return 'required';
  if (start > end) return '93';
  if (end - start > MAX_RANGE_DAYS * DAY) return '94';
  const sm = monthIndex(start, offsetMs);
  const em = monthIndex(end, offsetMs);
  if (sm !== em && !(em === sm + 1 && isMonthStart(end, offsetMs))) return '95';
  return undefined;
}

/** Checks a range of wall values. */
export function checkWallRange(r: [Dayjs | null, Dayjs | null] | null | undefined, offsetMs = customerOffsetMs()): RangeError | undefined {
  if (!r || !r[0] || !r[1]) return 'required';
  return checkRange(wallToMs(r[0], offsetMs), wallToMs(r[1], offsetMs), offsetMs);
}

/** The default range: from the start of this month to the end of today, in the customer's zone. */
export function defaultWallRange(now = Date.now(), offsetMs = customerOffsetMs()): [Dayjs, Dayjs] {
  const w = msToWall(now, offsetMs);
  return [w.startOf('month'), w.endOf('day')];
}

/** A wall range as the server wants it: inclusive ms. */
export function rangeToMs(r: [Dayjs, Dayjs], offsetMs = customerOffsetMs()): { sTime: number; eTime: number } {
  return { sTime: wallToMs(r[0], offsetMs), eTime: wallToMs(r[1], offsetMs) };
}

/** Formats an instant in the customer's zone. */
export function formatTime(ms: number | undefined, format: string, offsetMs = customerOffsetMs()): string {
  return ms ? msToWall(ms, offsetMs).format(format) : '';
}
