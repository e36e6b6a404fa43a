// Live directory state: the REST snapshot plus socket events (presence, status, renames, group switches, temp
// groups). Events are queued and applied once per animation frame so a burst costs one store update.
import { create } from 'zustand';
import type { Group, GroupDto, Terminal } from './model';

export interface DirectoryState {
  terminals: Record<string, Terminal>;
  groups: Record<string, Group>;
  /** Bumped when groups or membership change (the tree must be rebuilt). */
  structure: number;
  /** Bumped when any terminal's online state changes (the tree is rebuilt only when hiding offline terminals). */
  presence: number;
  loaded: boolean;
}

export const useDirectory = create<DirectoryState>(() => ({ terminals: {}, groups: {}, structure: 0, presence: 0, loaded: false }));

export function normalise(dtos: GroupDto[]): Pick<DirectoryState, 'terminals' | 'groups'> {
  const terminals: Record<string, Terminal> = {};
  const groups: Record<string, Group> = {};
  const walk = (g: GroupDto, parent: string) => {
    const gid = String(g.gid);
    const members: string[] = [];
    for (const t of g.msList ?? []) {
      const cid = String(t.cid);
      terminals[cid] = { ...t, cid, online: String(t.online) === '1' ? '1' : '0', grp: String(t.grp ?? '') };
      members.push(cid);
    }
    groups[gid] = {
      gid,
      fid: String(g.fid ?? parent),
      name: g.name,
      color: g.color,
      seqNum: g.seqNum ?? 0,
      kind: g.kind ?? 'fixed',
      creator: g.creator,
      creatorName: g.creatorName,
      members,
    };
    for (const c of g.children ?? []) walk(c, gid);
  };
  for (const g of dtos) walk(g, '0');
  return { terminals, groups };
}

// A snapshot is what the server held at some moment while its request ran; live events received after the request
// started may be newer than it. So every event gets a sequence number, events are kept in a journal while a snapshot
// is in flight, and a snapshot is applied with the events after its start replayed on top: a snapshot never
// overwrites newer live state (a terminal that went offline meanwhile stays offline).
let liveSeq = 0;
let inFlight = 0;
let journal: { seq: number; e: DirectoryEvent }[] = [];
let appliedMark = -1;

/** Marks the start of a snapshot request; pass the mark to loadSnapshot (or abortSnapshot if it failed). */
export function beginSnapshot(): number {
  inFlight++;
  return liveSeq;
}

export function abortSnapshot(): void {
  inFlight = Math.max(0, inFlight - 1);
  if (inFlight === 0) journal = [];
}

/**
 * Applies a snapshot requested at `mark` (beginSnapshot), then the live events received since. A snapshot older
 * than one already applied is dropped. Without a mark (tests, a one-off load) nothing is replayed.
 */
export function loadSnapshot(dtos: GroupDto[], mark?: number): void {
  flushNow();
  const newer = mark === undefined ? [] : journal.filter((j) => j.seq > mark).map((j) => j.e);
  if (mark !== undefined) abortSnapshot();
  if (mark !== undefined && mark < appliedMark) return;
  appliedMark = mark ?? appliedMark;
  const s = useDirectory.getState();
  const next: DirectoryState = { ...normalise(dtos), structure: s.structure + 1, presence: s.presence + 1, loaded: true };
  useDirectory.setState(applyEvents(next, newer));
}

export type DirectoryEvent =
  | { type: 'presence'; data: { msId: string; online: '1' | '0'; time?: number } }
  | { type: 'terminal.status'; data: { msId: string; battery?: number; signal?: number; lat?: number; lng?: number; speed?: number; time?: number } }
  | { type: 'terminal.updated'; data: Terminal }
  | { type: 'member.switched'; data: { msId: string; gid: string; from?: string } }
  | { type: 'tempGroup.changed'; data: { gid: string; action: 'create' | 'edit' | 'remove'; group?: GroupDto } };

/**
 * Applies a batch of events and returns the next state. The `terminals` record is updated in place — it can hold
 * 10,000 entries and copying it on every frame cost more than the rest of the frame (see bench/) — but every
 * changed terminal is a new object, which is what the row selectors compare. Groups are copied (few, rare).
 */
export function applyEvents(s: DirectoryState, events: DirectoryEvent[]): DirectoryState {
  if (events.length === 0) return s;
  const terminals = s.terminals;
  let groups = s.groups;
  let structure = s.structure;
  let presence = s.presence;
  for (const e of events) {
    switch (e.type) {
      case 'presence': {
        const t = terminals[e.data.msId];
        if (!t || t.online === e.data.online) break;
        const time = e.data.time ?? Date.now();
        terminals[e.data.msId] = { ...t, online: e.data.online, ...(e.data.online === '1' ? { lastOnline: time } : { lastOffline: time }) };
        presence++;
        break;
      }
      case 'terminal.status': {
        const t = terminals[e.data.msId];
        if (!t) break;
        const { msId: _m, time, ...rest } = e.data;
        const patch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
        terminals[e.data.msId] = { ...t, ...patch, ...(rest.lat !== undefined && time ? { lastGps: time } : {}) };
        break;
      }
      case 'terminal.updated': {
        const cid = String(e.data.cid);
        const t = terminals[cid];
        const next = { ...t, ...e.data, cid, online: String(e.data.online ?? t?.online ?? '0') === '1' ? ('1' as const) : ('0' as const) };
        if (t && t.online !== next.online) presence++;
        terminals[cid] = next;
        break;
      }
      case 'member.switched': {
        const t = terminals[e.data.msId];
        if (!t) break;
        terminals[e.data.msId] = { ...t, grp: String(e.data.gid) };
        break;
      }
      case 'tempGroup.changed': {
        groups = { ...groups };
        const gid = String(e.data.gid);
        if (e.data.action === 'remove') delete groups[gid];
        else if (e.data.group) {
          const n = normalise([{ ...e.data.group, kind: 'temp', fid: '0' }]);
          for (const [cid, t] of Object.entries(n.terminals)) {
            if (!terminals[cid]) terminals[cid] = t;
          }
          Object.assign(groups, n.groups);
        }
        structure++;
        break;
      }
    }
  }
  return { ...s, terminals, groups, structure, presence };
}

let queue: DirectoryEvent[] = [];
let scheduled = false;

function flush() {
  scheduled = false;
  const batch = queue;
  queue = [];
  useDirectory.setState((s) => applyEvents(s, batch));
}

/** Queues an event; all queued events are applied together on the next frame (or within 100 ms when hidden). */
export function enqueue(e: DirectoryEvent): void {
  queue.push(e);
  liveSeq++;
  if (inFlight > 0) journal.push({ seq: liveSeq, e });
  if (scheduled) return;
  scheduled = true;
  if (typeof document !== 'undefined' && document.visibilityState === 'visible' && typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 100);
}

export function flushNow(): void {
  if (queue.length) flush();
}

/** Adds terminals that are not members of any group (the outside-terminals group). */
export function upsertTerminals(list: Terminal[]): void {
  useDirectory.setState((s) => {
    const terminals = { ...s.terminals };
    for (const t of list) terminals[String(t.cid)] = { ...terminals[String(t.cid)], ...t, cid: String(t.cid), online: String(t.online) === '1' ? '1' : '0' };
    return { terminals };
  });
}
