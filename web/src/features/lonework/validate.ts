// Lone-worker rules of spec §5 (docs/safety.md codes 80–87, 97), checked in the dialog before the server does.
import type { Dayjs } from '../../shared/utils/dayjs';
import { wallToMs } from '../../shared/time/zone';

export const MAX_TERMINALS = 4;
export const MAX_DURATION = 1440; // minutes: at most one day
export const MIN_COUNTDOWN = 10;
export const MAX_COUNTDOWN = 600;
export const DEFAULT_COUNTDOWN = 60;

export interface PlanForm {
  msIds: string[];
  /** Wall values in the customer's zone (only the date part of `date` and the hour/minute of `time` count). */
  date: Dayjs | null;
  time: Dayjs | null;
  duration: number | null;
  interval: number | null;
  countdown: number | null;
  enabled: boolean;
}

export type PlanField = 'msIds' | 'date' | 'duration' | 'interval' | 'countdown';
/** A rule broken: the server's code for it ("80"…"97"), or "countdown" for the countdown bounds ("400"). */
export interface Problem {
  field: PlanField;
  code: string;
}

const whole = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isInteger(n);

/** The planned start (ms) of the form's date and time, or null when either is missing. */
export function plannedStart(f: Pick<PlanForm, 'date' | 'time'>, offsetMs?: number): number | null {
  if (!f.date || !f.time) return null;
  const wall = f.date.hour(f.time.hour()).minute(f.time.minute()).second(0).millisecond(0);
  return wallToMs(wall, offsetMs);
}

/**
 * Every rule the form breaks, in the server's order (so the first one is what the server would answer).
 * `editing`: an update of one plan, whose terminal cannot change.
 */
export function validatePlan(f: PlanForm, now: number, opts: { editing?: boolean; offsetMs?: number } = {}): Problem[] {
  const out: Problem[] = [];
  if (!opts.editing) {
    if (f.msIds.length === 0) out.push({ field: 'msIds', code: '80' });
    else if (new Set(f.msIds).size > MAX_TERMINALS) out.push({ field: 'msIds', code: '81' });
  }
  const start = plannedStart(f, opts.offsetMs);
  if (start === null) out.push({ field: 'date', code: '86' });
  let duration: number | null = null;
  if (!whole(f.duration) || f.duration < 0) out.push({ field: 'duration', code: '82' });
  else if (f.duration === 0) out.push({ field: 'duration', code: '87' });
  else if (f.duration > MAX_DURATION) out.push({ field: 'duration', code: '83' });
  else duration = f.duration;
  if (!whole(f.interval) || f.interval < 1) out.push({ field: 'interval', code: '84' });
  else if (duration !== null && f.interval > duration) out.push({ field: 'interval', code: '85' });
  if (f.countdown !== null && f.countdown !== undefined) {
    const limit = whole(f.interval) && f.interval >= 1 ? f.interval * 60 : MAX_COUNTDOWN;
    if (!whole(f.countdown) || f.countdown < MIN_COUNTDOWN || f.countdown > MAX_COUNTDOWN || f.countdown > limit) {
      out.push({ field: 'countdown', code: 'countdown' });
    }
  }
  if (start !== null && duration !== null && start + duration * 60_000 <= now) out.push({ field: 'date', code: '97' });
  return out;
}

/** Server codes of the lone-worker calls that have their own message (others fall back to a generic one). */
export const PLAN_CODES = ['80', '81', '82', '83', '84', '85', '86', '87', '88', '89', '96', '97', '404', '400'] as const;

/** The field a server refusal belongs to, to show it under that field. */
export function fieldOfCode(code: string): PlanField | null {
  switch (code) {
    case '80':
    case '81':
    case '89':
      return 'msIds';
    case '82':
    case '83':
    case '87':
      return 'duration';
    case '84':
    case '85':
      return 'interval';
    case '86':
    case '97':
      return 'date';
    default:
      return null;
  }
}
