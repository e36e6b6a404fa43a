// The plan rows of /lonework kept live: the list answer, then lonework.state (upsert) and lonework.removed (drop).
import type { Plan, PlanListQuery } from './api';
import type { LivePlan } from './countdown';
import { wallToMs } from '../../shared/time/zone';
import dayjs from '../../shared/utils/dayjs';

/** Does a plan belong in a list asked with this query? (queryDate: the window meets that day of the customer.) */
export function planMatches(p: Plan, q: PlanListQuery, offsetMs?: number): boolean {
  if (q.status && !q.status.split(',').map(Number).includes(p.status)) return false;
  if (q.msId && !q.msId.split(',').includes(p.msId)) return false;
  if (q.queryDate) {
    const day = dayjs(q.queryDate); // YYYY-MM-DD: read as a wall date
    const from = wallToMs(day.startOf('day'), offsetMs);
    const to = wallToMs(day.add(1, 'day').startOf('day'), offsetMs) - 1;
    if (p.sTime > to || p.eTime < from) return false;
  }
  return true;
}

/** Latest start first, as the server lists them. */
export function sortPlans(list: LivePlan[]): LivePlan[] {
  return list.slice().sort((a, b) => b.sTime - a.sTime || Number(b.id) - Number(a.id));
}

export function upsertPlan(rows: LivePlan[], p: Plan, q: PlanListQuery, receivedAt: number, offsetMs?: number): LivePlan[] {
  const rest = rows.filter((r) => r.id !== p.id);
  if (!planMatches(p, q, offsetMs)) return rest.length === rows.length ? rows : rest;
  return sortPlans([...rest, { ...p, receivedAt }]);
}

export function removePlans(rows: LivePlan[], ids: string[]): LivePlan[] {
  const drop = new Set(ids.map(String));
  return rows.some((r) => drop.has(r.id)) ? rows.filter((r) => !drop.has(r.id)) : rows;
}

/** What a dispatcher may do with a plan (docs/safety.md: no edit while in progress, in alarm or over). */
export function planActions(p: Plan): { edit: boolean; remove: boolean; end: boolean; toggle: boolean } {
  const waitingNormal = p.workState === 0 && p.status === 0;
  return {
    edit: waitingNormal,
    toggle: waitingNormal,
    remove: p.workState !== 1 && p.status !== 1,
    end: p.workState === 1,
  };
}
