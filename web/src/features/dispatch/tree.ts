// Builds the group tree (spec §2 dispatch screen) from the live directory: fixed and temporary groups, nesting,
// terminals under each, with the hide-offline / hide-dispatchers / search filters. Pure, so it is tested and
// benchmarked directly.
import { isDispatcher, terminalKind, type Group, type Terminal } from '../../shared/directory/model';

export interface TreeNode {
  key: string;
  kind: 'group' | 'terminal';
  id: string;
  /** The group a terminal row sits in (terminals may be members of several groups). */
  gid: string;
  children?: TreeNode[];
  isLeaf?: boolean;
  checkable?: boolean;
}

export interface TreeFilters {
  hideOffline: boolean;
  hideDispatcher: boolean;
  search: string;
  /** Cameras are listed only in the camera group, shown with version 1 and video-monitor access (spec §6). */
  cameraGroup?: Group;
  /** Terminals outside every group, shown only when the host enables it (spec §6). */
  outsideGroup?: Group;
}

export const VERTICAL_MODE_THRESHOLD = 30; // spec §5: more than 30 groups switches to vertical mode

export const groupKey = (gid: string) => `g:${gid}`;
export const terminalKey = (gid: string, cid: string) => `t:${gid}:${cid}`;
export function parseKey(key: string): { kind: 'group' | 'terminal'; gid: string; cid?: string } {
  const [k, gid, cid] = key.split(':');
  return k === 'g' ? { kind: 'group', gid: gid! } : { kind: 'terminal', gid: gid!, cid };
}

export function compareTerminals(a: Terminal, b: Terminal): number {
  // Dispatchers ("20") first, then by name; presence does not reorder, so a presence change re-renders one row only.
  const da = isDispatcher(a) ? 0 : 1;
  const db = isDispatcher(b) ? 0 : 1;
  if (da !== db) return da - db;
  return a.name.localeCompare(b.name) || a.cid.localeCompare(b.cid);
}

export function childGroups(groups: Record<string, Group>): Map<string, Group[]> {
  const byParent = new Map<string, Group[]>();
  for (const g of Object.values(groups)) {
    const parent = g.kind === 'temp' || !groups[g.fid] ? '0' : g.fid;
    const list = byParent.get(parent) ?? [];
    list.push(g);
    byParent.set(parent, list);
  }
  for (const list of byParent.values())
    list.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'fixed' ? -1 : 1) || a.seqNum - b.seqNum || a.name.localeCompare(b.name));
  return byParent;
}

export function buildTree(
  groups: Record<string, Group>,
  terminals: Record<string, Terminal>,
  f: TreeFilters,
  roots?: string[],
): TreeNode[] {
  const byParent = childGroups(groups);
  const q = f.search.trim().toLowerCase();
  const visible = (t: Terminal, g: Group) =>
    (terminalKind(t.type) !== 'camera' || g === f.cameraGroup) &&
    !(f.hideOffline && t.online !== '1') &&
    !(f.hideDispatcher && isDispatcher(t)) &&
    (!q || t.name.toLowerCase().includes(q) || t.cid.toLowerCase().includes(q));

  const seen = new Set<string>(); // guards against a malformed parent chain (a cycle) in the data
  const build = (g: Group): TreeNode | null => {
    if (seen.has(g.gid)) return null;
    seen.add(g.gid);
    const subs = (byParent.get(g.gid) ?? []).map(build).filter((n): n is TreeNode => n !== null);
    const members = g.members
      .map((cid) => terminals[cid])
      .filter((t): t is Terminal => !!t && visible(t, g))
      .sort(compareTerminals)
      .map((t): TreeNode => ({ key: terminalKey(g.gid, t.cid), kind: 'terminal', id: t.cid, gid: g.gid, isLeaf: true }));
    const nameHit = q && g.name.toLowerCase().includes(q);
    if (q && !nameHit && subs.length === 0 && members.length === 0) return null;
    return { key: groupKey(g.gid), kind: 'group', id: g.gid, gid: g.gid, children: [...subs, ...members], checkable: true };
  };

  const top = roots ? roots.map((id) => groups[id]).filter((g): g is Group => !!g) : [...(byParent.get('0') ?? [])];
  if (!roots) for (const extra of [f.cameraGroup, f.outsideGroup]) if (extra) top.push(extra);
  return top.map(build).filter((n): n is TreeNode => n !== null);
}

export function viewModeFor(groupCount: number): 'horizontal' | 'vertical' {
  return groupCount > VERTICAL_MODE_THRESHOLD ? 'vertical' : 'horizontal';
}

/** Online / total member counts of a group (direct members). */
export function groupCounts(g: Group, terminals: Record<string, Terminal>): { online: number; total: number } {
  let online = 0;
  for (const cid of g.members) if (terminals[cid]?.online === '1') online++;
  return { online, total: g.members.length };
}
