// What a dispatcher may do with a plan row of /lonework.
import type { Plan } from './api';

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
