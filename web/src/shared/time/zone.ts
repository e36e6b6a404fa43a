// Times in the customer's time zone (the session's timeZone). The server reads dates, days and months in that zone
// (lone-work date/time, report days, "cross-month not supported"), so the safety screens show and take times in it
// too, whatever the browser's own zone is.
//
// A "wall" value is a dayjs in the browser's zone whose fields (year … minute) are the customer's wall-clock
// fields: the date and time pickers work on it as usual, and wallToMs/msToWall convert at the edges.
import dayjs, { type Dayjs } from '../utils/dayjs';
import { useSession } from '../session';

export function customerOffsetMs(): number {
  return useSession.getState().session?.timeZoneMs ?? 0;
}

/** The instant (ms) of a wall-clock value in a zone offset by offsetMs from UTC. */
export function wallToMs(d: Dayjs, offsetMs = customerOffsetMs()): number {
  return Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second(), d.millisecond()) - offsetMs;
}

/** The wall-clock value of an instant in a zone offset by offsetMs from UTC. */
export function msToWall(ms: number, offsetMs = customerOffsetMs()): Dayjs {
  const u = new Date(ms + offsetMs);
  return dayjs(new Date(u.getUTCFullYear(), u.getUTCMonth(), u.getUTCDate(), u.getUTCHours(), u.getUTCMinutes(), u.getUTCSeconds(), u.getUTCMilliseconds()));
}

/** Now, as a wall value. */
export function wallNow(offsetMs = customerOffsetMs()): Dayjs {
  return msToWall(Date.now(), offsetMs);
}

/** Formats an instant in the customer's zone; '—' for 0/empty. */
export function formatZoned(ms: number | null | undefined, format: string, offsetMs = customerOffsetMs()): string {
  return ms ? msToWall(ms, offsetMs).format(format) : '—';
}

/** "1 h 02 min 05 s"-style duration parts for a span in ms (negative spans count as 0). */
export function durationParts(ms: number): { h: number; m: number; s: number } {
  const total = Math.max(0, Math.round(ms / 1000));
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

/** mm:ss, or h:mm:ss from an hour on. */
export function clock(ms: number): string {
  const { h, m, s } = durationParts(ms);
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Formats an instant in the customer's zone; '' for 0/empty. */
export function formatTime(ms: number | null | undefined, format: string, offsetMs = customerOffsetMs()): string {
  return ms ? msToWall(ms, offsetMs).format(format) : '';
}
