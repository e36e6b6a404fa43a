import { describe, expect, it, vi } from 'vitest';
import { answer, LOGIN, sent, signedIn, cardSession } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { flushPunches, loadPunches, punch, resetPunches, usePunches } from './bus';

cardSession(() => localStorage.clear(), resetPunches);

describe('phone school-bus card reader', () => {
  it('a punch is kept until the server answered it, and survives a restart of the app', async () => {
    const { ws } = await signedIn();
    const p = punch(' S-1001 ', 1, { lat: 41, lng: 29 });
    await vi.waitFor(() => expect(sent(ws, 'bus.punch')).toHaveLength(1));
    expect(sent(ws, 'bus.punch')[0]!.data).toMatchObject({ studentNum: 'S-1001', kind: 1, lat: 41, lng: 29 });
    expect(usePunches.getState().queue).toHaveLength(1);
    loadPunches(LOGIN.msId); // what a restarted app would find
    expect(usePunches.getState().queue).toHaveLength(1);
    answer(ws, 'bus.punch', '0', { punch: { studentName: 'Elif', kind: 1 }, duplicate: false });
    await p;
    expect(usePunches.getState().queue).toHaveLength(0);
    expect(usePunches.getState().last).toEqual({ name: 'Elif', kind: 1 });
  });

  it('a punch the network lost stays for the next login; an unknown card is dropped with a notice', async () => {
    const { ws } = await signedIn();
    const p = punch('S-1', 2);
    await vi.waitFor(() => expect(sent(ws, 'bus.punch')).toHaveLength(1));
    answer(ws, 'bus.punch', '503');
    await p;
    expect(usePunches.getState().queue.map((q) => q.studentNum)).toEqual(['S-1']);

    const again = flushPunches();
    await vi.waitFor(() => expect(sent(ws, 'bus.punch')).toHaveLength(2));
    answer(ws, 'bus.punch', '404');
    await again;
    expect(usePunches.getState().queue).toEqual([]);
    expect(useNotice.getState().notice).toMatchObject({ key: 'bus.unknown', vars: { card: 'S-1' } });
  });
});
