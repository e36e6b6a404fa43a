// Live countdowns of lone-work plans. The server stamps every plan with its clock (`serverTime`); a time it sends
// (deadline, next check) is turned into this browser's clock once, at receipt, so a skewed local clock does not
// matter and the countdown keeps running locally between events.
import type { Plan } from './api';

/** A plan as the console holds it: with the browser time it was received at. */
export interface LivePlan extends Plan {
  receivedAt: number;
}

/** A server instant in this browser's clock (0 stays 0: "none"). */
export function toLocal(serverMs: number, serverTime: number, receivedAt: number): number {
  if (!serverMs) return 0;
  if (!serverTime) return serverMs;
  return serverMs - serverTime + receivedAt;
}

/** Milliseconds left until a server instant, at local time `now` (never negative; 0 when there is none). */
export function msLeft(serverMs: number, serverTime: number, receivedAt: number, now: number): number {
  const local = toLocal(serverMs, serverTime, receivedAt);
  return local ? Math.max(0, local - now) : 0;
}

/** The check-in countdown of a plan (a prompt is waiting) in ms, or null when no countdown runs. */
export function checkinLeft(p: LivePlan, now: number): number | null {
  if (!p.deadline || p.workState !== 1) return null;
  return msLeft(p.deadline, p.serverTime, p.receivedAt, now);
}

/** Time until the next prompt in ms, or null. */
export function nextCheckLeft(p: LivePlan, now: number): number | null {
  if (!p.nextCheck || p.workState !== 1 || p.deadline) return null;
  return msLeft(p.nextCheck, p.serverTime, p.receivedAt, now);
}

/** Time until a waiting plan starts (ms), or null. */
export function startsIn(p: LivePlan, now: number): number | null {
  if (p.workState !== 0 || !p.enabled) return null;
  return msLeft(p.sTime, p.serverTime, p.receivedAt, now);
}

/**
 * True when a plan should have changed by `now` (started, prompted, alarmed, ended) at least `graceMs` ago but no
 * update came: lonework.state is not durable, so a missed one is fetched again rather than shown stale.
 */
export function isStale(p: LivePlan, now: number, graceMs = 5000): boolean {
  if (!p.enabled || p.workState === 2) return false;
  const due = (ms: number) => ms > 0 && toLocal(ms, p.serverTime, p.receivedAt) + graceMs < now;
  if (p.workState === 0) return due(p.sTime);
  if (due(p.eTime)) return true;
  return p.deadline ? due(p.deadline) : due(p.nextCheck);
}
