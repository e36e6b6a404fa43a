import { beforeEach, describe, expect, it } from 'vitest';
import { abortSnapshot, beginSnapshot, enqueue, flushNow, loadSnapshot, useDirectory } from './store';
import type { GroupDto, Terminal } from './model';

const term = (cid: string, online: '0' | '1', over: Partial<Terminal> = {}): Terminal => ({ cid, name: `Unit ${cid}`, type: '10', online, grp: '1', ...over });
const snapshot = (online: Record<string, '0' | '1'>, name = 'Patrol'): GroupDto[] => [
  { gid: '1', fid: '0', name, kind: 'fixed', msList: Object.entries(online).map(([cid, o]) => term(cid, o)) },
];
const online = (cid: string) => useDirectory.getState().terminals[cid]?.online;

describe('directory snapshot and live events', () => {
  beforeEach(() => {
    flushNow();
    loadSnapshot(snapshot({ a: '1', b: '0', me: '0' }));
  });

  it('applies live presence whatever the screen: the store alone takes the event', () => {
    enqueue({ type: 'presence', data: { msId: 'b', online: '1', time: 7 } });
    flushNow();
    expect(online('b')).toBe('1');
    expect(useDirectory.getState().terminals.b?.lastOnline).toBe(7);
  });

  it('never lets a snapshot requested before a live change overwrite it', () => {
    const mark = beginSnapshot();
    // While the request runs: a goes offline, b and this console come online.
    enqueue({ type: 'presence', data: { msId: 'a', online: '0' } });
    enqueue({ type: 'presence', data: { msId: 'b', online: '1' } });
    enqueue({ type: 'presence', data: { msId: 'me', online: '1' } });
    // The server read its answer before those changes.
    loadSnapshot(snapshot({ a: '1', b: '0', me: '0' }), mark);
    expect([online('a'), online('b'), online('me')]).toEqual(['0', '1', '1']);
  });

  it('takes the snapshot for changes it already holds (an event before the request)', () => {
    enqueue({ type: 'presence', data: { msId: 'a', online: '0' } });
    flushNow();
    const mark = beginSnapshot();
    loadSnapshot(snapshot({ a: '1', b: '1', me: '1' }), mark); // a came back meanwhile (its event was missed)
    expect([online('a'), online('b'), online('me')]).toEqual(['1', '1', '1']);
  });

  it('drops a snapshot older than one already applied, and forgets the journal when none is in flight', () => {
    const older = beginSnapshot();
    enqueue({ type: 'presence', data: { msId: 'b', online: '1' } });
    const newer = beginSnapshot();
    loadSnapshot(snapshot({ a: '1', b: '1', me: '0' }, 'Renamed'), newer);
    loadSnapshot(snapshot({ a: '1', b: '0', me: '0' }, 'Patrol'), older);
    expect(useDirectory.getState().groups['1']?.name).toBe('Renamed');
    expect(online('b')).toBe('1');
    // A failed request releases its mark too.
    const failed = beginSnapshot();
    abortSnapshot();
    enqueue({ type: 'presence', data: { msId: 'b', online: '0' } });
    flushNow();
    loadSnapshot(snapshot({ a: '1', b: '1', me: '0' }), beginSnapshot());
    expect(failed).toBeGreaterThan(0);
    expect(online('b')).toBe('1'); // requested after the event: the snapshot is the newer state
  });
});
