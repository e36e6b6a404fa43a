import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { signOut } from './session/session';
import { useSession } from './session/store';
import { answer, lastWS, LOGIN, sent, serverRequest, fakeSockets } from './test/terminal';

// The composed app in jsdom against the scripted server: the test ids and texts the browser suite
// (tests/e2e/phone.mjs, voice.mjs) relies on.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  localStorage.clear();
  fakeSockets();
  useSession.setState({ phase: 'login', status: 'idle', uid: undefined, loginError: undefined, link: undefined });
});
afterEach(() => {
  cleanup();
  act(() => signOut());
  vi.unstubAllGlobals();
});

const byTestId = (id: string) => document.querySelector(`[data-testid=${id}]`) as HTMLElement | null;

/** Renders the app and submits the sign-in form. */
async function submitLogin(password: string) {
  render(<App />);
  await screen.findByTestId('phone-login');
  fireEvent.change(screen.getByTestId('phone-account'), { target: { value: LOGIN.msId } });
  fireEvent.change(screen.getByTestId('phone-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('phone-submit'));
}

describe('phone app', () => {
  it('signs in from the form, shows the terminal, a delivered message in the inbox, and signs out to a filled form', async () => {
    await submitLogin('123456');
    expect(screen.getByTestId('phone-submit').textContent).toBe('Connecting…');

    const ws = lastWS();
    await act(async () => {
      ws.open();
      answer(ws, 'session.login', '0', LOGIN);
    });
    await vi.waitFor(() => expect(sent(ws, 'group.list')).toHaveLength(1));
    await act(async () => answer(ws, 'group.list', '0', { groups: [{ gid: '1', name: 'Operations' }], pttGroup: '1', gId: '1' }));

    const main = await screen.findByTestId('phone-main');
    expect(main.dataset.uid).toBe(LOGIN.msId);
    await vi.waitFor(() => expect(byTestId('phone-group')?.dataset.gid).toBe('1'));
    expect(byTestId('phone-group')!.textContent).toContain('Operations');
    expect(byTestId('phone-ptt')!.dataset.phase).toBe('idle');
    expect(byTestId('phone-talker')!.textContent).toContain('Channel idle');
    expect(byTestId('phone-sos')).not.toBeNull();
    expect(byTestId('phone-location')).not.toBeNull();
    expect(byTestId('phone-sos-state')).toBeNull();

    await act(async () => {
      await serverRequest(ws, 'sms.deliver', { id: 4, from: '10000001', fromName: 'Dispatch', content: 'Report to gate 4', type: 'text', time: Date.now() });
    });
    expect(byTestId('phone-unread')!.textContent).toBe('1');
    expect(byTestId('phone-notice')!.dataset.key).toBe('messages.new');
    fireEvent.click(screen.getByTestId('phone-inbox-button'));
    expect(screen.getByTestId('phone-message').textContent).toContain('Report to gate 4');
    expect(byTestId('phone-unread')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(byTestId('phone-inbox')).toBeNull();

    await act(async () => {
      await serverRequest(ws, 'call.set', { status: 0 });
    });
    expect(byTestId('phone-blocked')).not.toBeNull();
    expect((byTestId('phone-ptt') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('phone-menu-button'));
    fireEvent.click(screen.getByTestId('phone-signout'));
    await screen.findByTestId('phone-login');
    expect((screen.getByTestId('phone-account') as HTMLInputElement).value).toBe(LOGIN.msId);
  });

  // A dispatcher's account is named as one (code 6), not "incorrect account number".
  it.each([
    ['a wrong password', '2', /incorrect password/i],
    ['a dispatcher account', '6', /dispatcher account/i],
  ])('%s is refused with its code (%s) and text', async (_what, code, text) => {
    await submitLogin('654321');
    await act(async () => {
      lastWS().open();
      answer(lastWS(), 'session.login', code);
    });
    const err = await screen.findByTestId('phone-login-error');
    expect(err.dataset.code).toBe(code);
    expect(err.textContent).toMatch(text);
  });
});
