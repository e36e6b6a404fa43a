import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useInbox } from '../inbox/inbox';
import { useLocation } from '../location/location';
import { usePtt } from '../ptt/ptt';
import { useSos } from '../sos/sos';
import { answer, lastWS, LOGIN, sent, serverRequest, fakeSockets } from '../test/terminal';
import { storedAccount } from './account';
import { signIn, signOut } from './session';
import { useSession } from './store';

const UID = LOGIN.msId;
const GROUPS = { groups: [{ gid: '1', name: 'Operations' }], pttGroup: '1', gId: '1' };

beforeEach(() => {
  localStorage.clear();
  fakeSockets();
  useSession.setState({ phase: 'login', status: 'idle', uid: undefined, loginError: undefined, link: undefined });
});
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

/** Signs in against the scripted server: login accepted, the group list answered. */
async function signedIn() {
  const done = signIn(UID, '123456', true);
  const ws = lastWS();
  ws.open();
  answer(ws, 'session.login', '0', LOGIN);
  await vi.waitFor(() => expect(sent(ws, 'group.list')).toHaveLength(1));
  answer(ws, 'group.list', '0', GROUPS);
  expect(await done).toBe(true);
  return ws;
}

describe('phone session', () => {
  it('a refused login shows its code, a failed connection says "network", and nothing starts', async () => {
    const wrong = signIn(UID, '654321');
    expect(useSession.getState().phase).toBe('connecting');
    lastWS().open();
    expect(lastWS().sent[0]!.data).toEqual({ client: 'terminal', uid: UID, auth: '654321' });
    answer(lastWS(), 'session.login', '2');
    expect(await wrong).toBe(false);
    expect(useSession.getState()).toMatchObject({ phase: 'login', loginError: '2', uid: UID, link: undefined });
    expect(await storedAccount()).toBeUndefined();

    const offline = signIn(UID, '123456');
    lastWS().close();
    expect(await offline).toBe(false);
    expect(useSession.getState().loginError).toBe('network');
    expect(window.tenfourVoice).toBeUndefined();
  });

  it('signed in: the voice engine runs, the kept inbox is shown, the groups load, the account is kept; param.set applies', async () => {
    localStorage.setItem(`tenfour.app.inbox.${UID}`, JSON.stringify([{ id: '3', from: '10000001', fromName: 'Dispatch', content: 'Hi', type: 'text', time: 1 }]));
    const ws = await signedIn();
    const { phase, link, status } = useSession.getState();
    expect([phase, status]).toEqual(['ready', 'online']);
    expect(window.tenfourVoice).toBe(link!.engine);
    expect(useInbox.getState().messages.map((m) => m.id)).toEqual(['3']);
    await vi.waitFor(() => expect(usePtt.getState().pttGroup).toBe('1'));
    expect((await storedAccount())?.uid).toBe(UID);

    expect((await serverRequest(ws, 'param.set', { seconds: { gpsInterval: 15, heartbeat: 20 } })).code).toBe('0');
    expect(useLocation.getState().intervalS).toBe(15);
  });

  it('after a reconnect the groups load again and an SOS raised offline goes out', async () => {
    const ws = await signedIn();
    useSos.setState({ state: 'sending', error: '4' });
    ws.close();
    await vi.waitFor(() => expect(lastWS()).not.toBe(ws), { timeout: 5000 });
    const again = lastWS();
    again.open();
    expect(again.sent[0]!.data).toMatchObject({ client: 'terminal', uid: UID });
    answer(again, 'session.login', '0', LOGIN);
    await vi.waitFor(() => expect(sent(again, 'group.list')).toHaveLength(1));
    answer(again, 'group.list', '0', GROUPS);
    await vi.waitFor(() => expect(sent(again, 'sos.raise')).toHaveLength(1));
  });

  it('signed in elsewhere: back to the form with "replaced", every part reset, the account kept', async () => {
    const ws = await signedIn();
    await vi.waitFor(() => expect(usePtt.getState().pttGroup).toBe('1'));
    useSos.setState({ state: 'open', id: '5' });
    ws.event('session.replaced', {});
    expect(useSession.getState()).toMatchObject({ phase: 'login', status: 'idle', loginError: 'replaced', uid: UID, link: undefined });
    expect(window.tenfourVoice).toBeUndefined();
    expect(usePtt.getState().pttGroup).toBe('');
    expect(useSos.getState()).toEqual({ state: 'idle' });
    expect(useInbox.getState().messages).toEqual([]);
    expect((await storedAccount())?.uid).toBe(UID);
  });

  it('disabled while signed in (the next login refused): back to the form with the code, the account forgotten', async () => {
    const ws = await signedIn();
    ws.close();
    await vi.waitFor(() => expect(lastWS()).not.toBe(ws), { timeout: 5000 });
    lastWS().open();
    answer(lastWS(), 'session.login', '6');
    await vi.waitFor(() => expect(useSession.getState().phase).toBe('login'));
    expect(useSession.getState()).toMatchObject({ loginError: '6', uid: UID, link: undefined });
    expect(await storedAccount()).toBeUndefined();
  });

  it('a sign-out keeps the account id (the form is filled again) and drops the password', async () => {
    await signedIn();
    localStorage.setItem('tenfour.app.account', JSON.stringify({ uid: UID, secret: { iv: 'aa', ct: 'bb' } }));
    signOut();
    expect(useSession.getState()).toMatchObject({ phase: 'login', uid: UID, link: undefined });
    expect(JSON.parse(localStorage.getItem('tenfour.app.account')!)).toEqual({ uid: UID });
  });
});
