// Typed client of the directory and terminal-management calls (docs/api.md "Directory"), with query keys.
import { queryOptions } from '@tanstack/react-query';
import { http } from '../http/client';
import type { GroupDto, Terminal } from './model';
import { abortSnapshot, beginSnapshot, loadSnapshot } from './store';

export const DIRECTORY_PATHS = {
  groups: '/ds/data/getGrpMsList',
  lastGps: '/ds/data/getLastGps',
  terminal: '/ds/data/findMsInfo',
  renameGroup: '/ds/nms/updateGroupName',
  renameTerminal: '/ds/nms/updateTerminalName',
  addGroup: '/ds/nms/addGroup',
  saveGroupMs: '/ds/nms/saveGroupMs',
  removeGroupMs: '/ds/nms/removeGroupMs',
  deleteGroup: '/ds/nms/deleteGroup',
  terminalsByClient: '/ds/nms/getTerminalByClient',
  updateIcon: '/ds/custom/updateMsIcon',
} as const;

export interface GroupsAnswer {
  groups: GroupDto[];
  cols?: string[];
}

const NUMERIC = new Set(['lat', 'lng', 'speed', 'battery', 'signal', 'lastGps', 'callSetStatus', 'lastOnline', 'lastOffline']);

/** Expands the compact form ({cols, groups:[{…, ms:[[row]]}]}) into msList objects. */
export function expandCompact(a: GroupsAnswer): GroupDto[] {
  const cols = a.cols;
  if (!cols) return a.groups;
  const walk = (g: GroupDto): GroupDto => ({
    ...g,
    msList: g.msList ?? (g.ms ?? []).map((row) => Object.fromEntries(cols.map((c, i) => [c, NUMERIC.has(c) && row[i] !== null ? Number(row[i]) : row[i]])) as unknown as Terminal),
    children: g.children?.map(walk),
  });
  return a.groups.map(walk);
}

export const directoryApi = {
  groups: async () => expandCompact(await http.get<GroupsAnswer>(DIRECTORY_PATHS.groups, { isCompress: 1, lastGps: 0 })),
  terminal: (msId: string) => http.get<Terminal>(DIRECTORY_PATHS.terminal, { msId }),
  renameGroup: (gid: string, name: string) => http.put<unknown>(DIRECTORY_PATHS.renameGroup, { gid, name }),
  renameTerminal: (msId: string, msName: string) => http.put<unknown>(DIRECTORY_PATHS.renameTerminal, { msId, msName }),
  addGroup: (name: string, fid: string) => http.post<{ gid: string }>(DIRECTORY_PATHS.addGroup, { name, fid }),
  saveGroupMs: (p: { msId: string; groupId: string; keepOldGrp: '0' | '1'; pttGrp: '0' | '1'; diffClient: '0' }) => http.post<unknown>(DIRECTORY_PATHS.saveGroupMs, p),
  removeGroupMs: (msId: string, groupId: string) => http.post<unknown>(DIRECTORY_PATHS.removeGroupMs, { msId, groupId }),
  deleteGroup: (gid: string) => http.post<unknown>(DIRECTORY_PATHS.deleteGroup, { gid }),
  /** Not in docs/api.md yet — see web/NEEDS.md. */
  updateIcon: (p: { msId: string; icon: string; image: string }) => http.put<unknown>(DIRECTORY_PATHS.updateIcon, p),
};

export const directoryKeys = {
  all: ['directory'] as const,
  groups: () => [...directoryKeys.all, 'groups'] as const,
  terminal: (msId: string) => [...directoryKeys.all, 'terminal', msId] as const,
};

/** Fetches the groups and terminals and applies them to the directory store, once per fetch. */
async function fetchSnapshot(): Promise<GroupDto[]> {
  const mark = beginSnapshot();
  try {
    const dtos = await directoryApi.groups();
    loadSnapshot(dtos, mark);
    return dtos;
  } catch (e) {
    abortSnapshot();
    throw e;
  }
}

/**
 * The directory snapshot. Fetching it is what updates the store: cached data is never re-applied when a screen
 * mounts (the store, kept live by the directory feed, is newer than any cached copy).
 */
export const groupsQuery = () => queryOptions({ queryKey: directoryKeys.groups(), queryFn: fetchSnapshot, staleTime: Infinity });
export const terminalQuery = (msId: string) => queryOptions({ queryKey: directoryKeys.terminal(msId), queryFn: () => directoryApi.terminal(msId) });

export const outsideTerminalsQuery = () =>
  queryOptions({
    queryKey: [...directoryKeys.all, 'outside'] as const,
    queryFn: () => http.get<{ total: number; list: Terminal[] }>(DIRECTORY_PATHS.terminalsByClient, { pageNo: 1, pageSize: 20 }),
  });
