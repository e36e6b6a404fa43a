// Tree row hooks of the voice feature (kept apart from the menu code so rows import only the store).
import { groupTalker, useVoice } from './store';
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
