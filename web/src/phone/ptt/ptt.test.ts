import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FloorView } from '../../shared/voice/protocol';
import { IDLE } from '../../shared/voice/ptt';
import { useVoice } from '../../shared/voice/store';
import { answer, endSession, sent, serverRequest, signedIn, fakeSockets } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { PTT_ERROR_MS, pttLabel, shownError, shownFloor } from './floor';
import { attachPtt, loadGroups, press, release, resetPtt, switchGroup, usePtt } from './ptt';

const person = (msId: string, name = msId) => ({ msId, name, type: '10' });
const floor = (callId: string, more: Partial<FloorView>): FloorView => ({ callId, kind: 'group', talker: null, queue: [], maxTalkMs: 60_000, ...more });

beforeEach(() => {
  fakeSockets();
  resetPtt();
  useNotice.setState({ notice: undefined });
});
afterEach(endSession);

describe('phone talk groups and the dispatcher’s controls', () => {
  it('lists the groups after login, switches its own and follows a remote switch with a notice', async () => {
    const { ws, link } = await signedIn(attachPtt);
    const loaded = loadGroups();
    answer(ws, 'group.list', '0', { groups: [{ gid: '1', name: 'Operations' }, { gid: '5', name: 'Emergency' }], pttGroup: 1, gId: 1 });
    await loaded;
    expect(usePtt.getState()).toMatchObject({ pttGroup: '1', gId: '1' });
    expect(usePtt.getState().groups.map((g) => g.name)).toEqual(['Operations', 'Emergency']);

    link.engine.setTarget({ callId: 'c1' });
    const switched = switchGroup('5');
    expect(sent(ws, 'group.switch')[0]!.data).toEqual({ gid: '5' });
    answer(ws, 'group.switch');
    await switched;
    expect(usePtt.getState().pttGroup).toBe('5');
    expect(useVoice.getState().target).toBeUndefined(); // a bare press talks in the new group

    const refused = switchGroup('9');
    answer(ws, 'group.switch', '403');
    await refused;
    expect(usePtt.getState().pttGroup).toBe('5');
    expect(useNotice.getState().notice).toMatchObject({ key: 'errors.switch', vars: { code: '403' } });

    expect((await serverRequest(ws, 'group.switch', { gid: '1', name: 'Operations' })).code).toBe('0');
    expect(usePtt.getState().pttGroup).toBe('1');
    expect(useNotice.getState().notice).toMatchObject({ key: 'groups.remoteSwitch', vars: { name: 'Operations' } });

    ws.event('group.changed', { groups: [{ gid: '7', name: 'Temp', kind: 'temp' }], pttGroup: '7', gId: '1' });
    expect(usePtt.getState()).toMatchObject({ pttGroup: '7', groups: [{ gid: '7', name: 'Temp', kind: 'temp' }] });
  });

  it('stunned: no talking (button or key), no tones; active again, a press asks for the floor', async () => {
    const { ws } = await signedIn(attachPtt);
    expect((await serverRequest(ws, 'call.set', { status: 1 })).code).toBe('0');
    expect(usePtt.getState().callSet).toBe(1);
    press();
    expect(useVoice.getState().ptt.pressed).toBe(false);
    const tone = await serverRequest(ws, 'tone.play', { name: 'Evacuate', fileUrl: '' });
    expect([tone.code, tone.msg]).toEqual(['486', 'blocked']);

    await serverRequest(ws, 'call.set', { status: 8 });
    press();
    expect(useVoice.getState().ptt.pressed).toBe(true);
    release();
    expect((await serverRequest(ws, 'tone.play', { name: 'Evacuate', fileUrl: '' })).code).toBe('0');
    expect(useNotice.getState().notice).toMatchObject({ key: 'messages.tone', vars: { name: 'Evacuate' } });
  });

  it('keeps TURN credentials a dispatcher sent (turn.config) for the next media connection', async () => {
    const { ws, link } = await signedIn(attachPtt);
    expect((await serverRequest(ws, 'turn.config', { iceServers: [] })).code).toBe('400');
    const servers = [{ urls: ['turn:203.0.113.5:3478?transport=udp'], username: '1764150000:10000170', credential: 'c' }];
    expect((await serverRequest(ws, 'turn.config', { iceServers: servers })).code).toBe('0');
    expect(link.engine.link.turnServers).toEqual(servers);
  });

  it('monitoring is refused without a media connection', async () => {
    const { ws } = await signedIn(attachPtt);
    const r = await serverRequest(ws, 'monitor.start', {});
    expect([r.code, r.msg]).toEqual(['502', 'no media connection']);
  });
});

describe('what the talk area and the button show', () => {
  it('the floor this phone plays, else its talk group’s, else another call’s that is not a group', () => {
    const own = floor('g1', { gid: '1', talker: person('10000157') });
    const other = floor('g5', { gid: '5', talker: person('10000001') });
    const single = floor('s1', { kind: 'single', talker: person('10000002') });
    const floors = { g1: own, g5: other, s1: single };
    expect(shownFloor(floors, { callId: 'g5', msId: '10000001' }, '1')).toBe(other);
    expect(shownFloor(floors, null, '1')).toBe(own);
    expect(shownFloor(floors, null, '9')).toBe(single);
    expect(shownFloor({ g5: other }, null, '9')).toBeUndefined();
    expect(shownFloor({ g1: { ...own, talker: null } }, { callId: 'g1', msId: 'x' }, '1')).toBeUndefined();
  });

  it('a refusal shows on the idle button for 4 s, with its own text or the code', () => {
    const refused = { ...IDLE, error: { code: '486', at: 1000 } };
    expect(shownError(refused, 1000 + PTT_ERROR_MS - 1)).toBe('486');
    expect(shownError(refused, 1000 + PTT_ERROR_MS)).toBeUndefined();
    expect(shownError({ ...refused, phase: 'requesting' }, 1001)).toBeUndefined();

    expect(pttLabel(IDLE, 'connected', false, undefined)).toBe('Hold to talk');
    expect(pttLabel(IDLE, 'connecting', false, undefined)).toBe('Voice is connecting…');
    expect(pttLabel(IDLE, 'connected', true, undefined)).toBe('Talking is blocked');
    expect(pttLabel({ ...IDLE, phase: 'queued', position: 2 }, 'connected', false, undefined)).toBe('Queued #2');
    expect(pttLabel(refused, 'connected', false, '486')).toBe('Busy: someone else is talking');
    expect(pttLabel(refused, 'connected', false, '999')).toBe('Cannot talk (code 999)');
  });
});
