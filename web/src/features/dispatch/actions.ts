// Terminal and group management actions (spec §2, §4): REST for the directory, the socket for live commands.
import { live } from '../../shared/socket/live';
import { CALL_SET } from '../../shared/directory/model';

export type CallSetAction = 'kill' | 'stun' | 'revive';
export const CALL_SET_STATUS: Record<CallSetAction, number> = { kill: CALL_SET.killed, stun: CALL_SET.stunned, revive: CALL_SET.active };

export const liveActions = {
  callSet: (msId: string, action: CallSetAction) => live().request('call.set', { msId, status: CALL_SET_STATUS[action] }),
  switchGroup: (gid: string, msId?: string) => live().request('group.switch', msId ? { gid, msId } : { gid }),
  createTempGroup: (name: string, msIds: string[]) => live().request<{ gid: string }>('tempGroup.create', { name, msIds }),
  editTempGroup: (gid: string, patch: { name?: string; add?: string[]; remove?: string[] }) => live().request('tempGroup.edit', { gid, ...patch }),
  removeTempGroup: (gid: string) => live().request('tempGroup.remove', { gid }),
  delTempMember: (gid: string, msId: string) => live().request('tempGroup.delMember', { gid, msId }),
};
