// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { applyEvents, normalise, type DirectoryState } from '../../shared/directory/store';
import { buildTree, viewModeFor } from './tree';
import type { GroupDto, Terminal } from '../../shared/directory/model';
import { expandCompact } from '../../shared/directory/api';

const term = (cid: string, over: Partial<Terminal> = {}): Terminal => ({ cid, name: `Unit ${cid}`, type: '10', online: '0', grp: '1', ...over });
const dtos: GroupDto[] = [
  {
    gid: '1', fid: '0', name: 'Patrol', kind: 'fixed',
    msList: [term('a', { online: '1' }), term('b'), term('d', { type: '20', name: 'Desk', online: '1' })],
    children: [{ gid: '2', fid: '1', name: 'Night', msList: [term('c', { grp: '2' })] }],
  },
  { gid: '9', fid: '0', name: 'Ops', kind: 'temp', msList: [term('a', { online: '1' })] },
];
const state = (): DirectoryState => ({ ...normalise(dtos), structure: 1, presence: 1, loaded: true });
const flat = (nodes: ReturnType<typeof buildTree>): string[] => nodes.flatMap((n) => [n.key, ...flat(n.children ?? [])]);
const f = { hideOffline: false, hideDispatcher: false, search: '' };

describe('group tree', () => {
  it('nests groups, puts temp groups after fixed ones and dispatchers first', () => {
    const s = state();
    const keys = flat(buildTree(s.groups, s.terminals, f));
    expect(keys).toEqual(['g:1', 'g:2', 't:2:c', 't:1:d', 't:1:a', 't:1:b', 'g:9', 't:9:a']);
  });
  it('hides offline terminals and dispatchers, and searches by name or ID', () => {
    const s = state();
    expect(flat(buildTree(s.groups, s.terminals, { ...f, hideOffline: true }))).toEqual(['g:1', 'g:2', 't:1:d', 't:1:a', 'g:9', 't:9:a']);
    expect(flat(buildTree(s.groups, s.terminals, { ...f, hideDispatcher: true }))).not.toContain('t:1:d');
    expect(flat(buildTree(s.groups, s.terminals, { ...f, search: 'unit c' }))).toEqual(['g:1', 'g:2', 't:2:c']);
  });
  it('switches to vertical mode above 30 groups', () => {
    expect(viewModeFor(30)).toBe('horizontal');
    expect(viewModeFor(31)).toBe('vertical');
  });
  it('expands the compact answer', () => {
    const g = expandCompact({ cols: ['cid', 'name', 'online', 'battery'], groups: [{ gid: '1', fid: '0', name: 'A', ms: [['x', 'X', '1', '55']] }] });
    expect(g[0]!.msList).toEqual([{ cid: 'x', name: 'X', online: '1', battery: 55 }]);
  });
});

describe('live events', () => {
  it('applies presence, status, switches and temp groups without touching other terminals', () => {
    const s = state();
    const before = { a: s.terminals.a, c: s.terminals.c };
    const n = applyEvents(s, [
      { type: 'presence', data: { msId: 'b', online: '1', time: 5 } },
      { type: 'terminal.status', data: { msId: 'b', battery: 40, signal: 3 } },
      { type: 'member.switched', data: { msId: 'a', gid: '9', from: '1' } },
      { type: 'tempGroup.changed', data: { gid: '9', action: 'remove' } },
    ]);
    expect(n.terminals.b).toMatchObject({ online: '1', lastOnline: 5, battery: 40, signal: 3 });
    expect(n.terminals.a!.grp).toBe('9');
    expect(n.terminals.c).toBe(before.c); // untouched rows keep their object: their selectors do not fire
    expect(n.terminals.a).not.toBe(before.a);
    expect(n.groups['9']).toBeUndefined();
    expect(n.presence).toBe(s.presence + 1);
    expect(n.structure).toBe(s.structure + 1);
  });
  it('ignores a presence that changes nothing', () => {
    const s = state();
    expect(applyEvents(s, [{ type: 'presence', data: { msId: 'a', online: '1' } }]).presence).toBe(s.presence);
  });
});

describe('date format', () => {
  it('turns the host format into dayjs tokens', async () => {
    const { toDayjsFormat } = await import('../../shared/branding/store');
    expect(toDayjsFormat(undefined)).toBe('MM/DD/YYYY');
    expect(toDayjsFormat('dd.MM.yyyy')).toBe('DD.MM.YYYY');
  });
});
