// How old a terminal's position is (issue 32 item 3): wherever a screen shows "where the terminal is" — the alarm
// dialog, the terminal info panel, the map's terminal card, the map's markers — it shows the fix's age and calls it
// stale by this one rule, so an SOS from a phone without location never passes an old fix off as current.

/** A fix older than this is stale (the user manual, "Positions and their age", names the same 10 minutes). */
export const POSITION_STALE_MS = 10 * 60_000;

export interface FixAge {
  /** Milliseconds since the fix (0 for a fix stamped in the future by a fast device clock). */
  ageMs: number;
  stale: boolean;
}

/** The age of a fix taken at `at` (UTC ms) seen at `now`; undefined when there is no fix time. */
export function fixAge(at: number | null | undefined, now: number): FixAge | undefined {
  if (!at || at <= 0) return undefined;
  const ageMs = Math.max(0, now - at);
  return { ageMs, stale: ageMs > POSITION_STALE_MS };
}

/** True when a position has no fix time or one older than the threshold (the map draws such markers faded). */
export function isStaleFix(at: number | null | undefined, now: number): boolean {
  return fixAge(at, now)?.stale ?? true;
}
