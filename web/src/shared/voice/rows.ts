// Tree row hooks of the voice feature (kept apart from the menu code so rows import only the store).
import { groupTalker, useVoice } from './store';
import type { CallView } from './protocol';
import './voice.css';

/** Whether this account talks now (tree row highlight). */
export function useTerminalTalking(cid: string): boolean {
  return useVoice((s) => !!s.talkers[cid]);
}

/** The name of who talks in this group's call now, if anyone. */
export function useGroupTalker(gid: string): string | undefined {
  return useVoice((s) => groupTalker(s, gid));
}

/** Whether this dispatcher monitors the group or the terminal. */
export function useMonitored(kind: 'group' | 'terminal', id: string): boolean {
  return useVoice((s) => (kind === 'group' ? s.monitor.groups.includes(id) : s.monitor.terminal === id));
}

/** A terminal's individual-call state (spec §4 member states): 'inCall' while a connected individual call has it as
 * a party, 'calling' while one that has it is being set up (trying, ringing, answered), else undefined. A party
 * that left or went offline is no longer in the call. */
export type MemberCallState = 'inCall' | 'calling';

export function memberCallState(calls: Record<string, CallView>, cid: string): MemberCallState | undefined {
  let out: MemberCallState | undefined;
  for (const c of Object.values(calls)) {
    if (c.kind !== 'single' || c.state === 'ended') continue;
    const p = c.parties?.find((x) => x.msId === cid) ?? (c.initiator.msId === cid ? { state: 'connected' } : undefined);
    if (!p || p.state === 'left' || p.state === 'offline') continue;
    if (c.state === 'connected') return 'inCall';
    out = 'calling';
  }
  return out;
}

/** The terminal's member call state, for its tree row. */
export function useMemberCallState(cid: string): MemberCallState | undefined {
  return useVoice((s) => memberCallState(s.calls, cid));
}
