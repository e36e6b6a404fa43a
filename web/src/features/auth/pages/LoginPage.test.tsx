import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { initI18n } from '../../../i18n';
import { browserNav, LoginError } from '../signIn';
import { clearSignedOut, noteSignedOut, useSignedOut } from '../signedOut';
import { authApi } from '../api';
import { ApiError } from '../../../shared/http/client';
import LoginPage from './LoginPage';

// The login page without the UI kit (issue 32): the same fields, checks, refusals and notices as the antd form
// it replaced, by label and test id.
const { signIn, signInOAuth } = vi.hoisted(() => ({ signIn: vi.fn(), signInOAuth: vi.fn() }));
vi.mock('../signIn', async (real) => ({ ...(await real<typeof import('../signIn')>()), signIn, signInOAuth }));

beforeAll(async () => {
  await initI18n('en-US');
});
beforeEach(() => {
  vi.spyOn(authApi, 'oauthProviders').mockResolvedValue([]); // a host without OAuth providers unless a test says
});
afterEach(() => {
  cleanup();
  signIn.mockReset();
  signInOAuth.mockReset();
  clearSignedOut();
  window.history.replaceState(null, '', '/');
  vi.restoreAllMocks();
});

function open() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage ForgotDialog={() => null} /> },
      { path: '/home', element: <div data-testid="home" /> },
    ],
    { initialEntries: ['/login'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the login page', () => {
  it('asks for the account and the password before signing in (a blank account counts as none)', async () => {
    open();
    type('Account', '   ');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Please enter your account.')).toBeTruthy();
    expect(screen.getByText('Please enter your password.')).toBeTruthy();
    expect(screen.getByLabelText('Account').getAttribute('aria-invalid')).toBe('true');
    expect(signIn).not.toHaveBeenCalled();
    // Checked as they change from then on.
    type('Account', '10000001');
    expect(screen.queryByText('Please enter your account.')).toBeNull();
    expect(screen.getByText('Please enter your password.')).toBeTruthy();
  });

  it('shows a refusal with its code and counts the attempts', async () => {
    signIn.mockRejectedValue(new LoginError('2'));
    open();
    type('Account', ' 10000001 ');
    type('Password', 'wrong');
    fireEvent.click(screen.getByTestId('login-submit'));
    const error = await screen.findByTestId('login-error');
    expect(signIn).toHaveBeenCalledWith('10000001', 'wrong');
    expect(error.textContent).toBe('Incorrect password.');
    expect(error.dataset.code).toBe('2');
    expect(error.dataset.attempt).toBe('1');
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(screen.getByTestId('login-error').dataset.attempt).toBe('2'));
  });

  it('lands on the home page once signed in', async () => {
    signIn.mockResolvedValue({});
    const router = open();
    type('Account', '10000001');
    type('Password', 'secret');
    fireEvent.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home');
    expect(router.state.location.pathname).toBe('/home');
  });

  it('says why the window was signed out, until a refusal takes its place', async () => {
    noteSignedOut({ reason: 'replaced', ip: '192.0.2.7', time: Date.UTC(2026, 10, 28, 15, 11, 0) });
    signIn.mockRejectedValue(new LoginError('4'));
    open();
    const notice = screen.getByTestId('login-signed-out');
    expect(notice.dataset.reason).toBe('replaced');
    expect(notice.textContent).toContain('192.0.2.7');
    expect(useSignedOut.getState().notice).toBeDefined();
    type('Account', '10000001');
    type('Password', 'secret');
    fireEvent.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('login-error');
    expect(screen.queryByTestId('login-signed-out')).toBeNull();
  });

  it('offers an e-mail code sign-in: mails a login code to the bound address and signs in with it (loginext flag=1)', async () => {
    const mail = vi.spyOn(authApi, 'getVerifyCode').mockResolvedValue({});
    signIn.mockResolvedValue({});
    open();
    expect(screen.queryByTestId('login-code')).toBeNull(); // a password sign-in by default
    fireEvent.click(screen.getByTestId('login-code-toggle'));
    fireEvent.click(screen.getByTestId('login-send-code')); // no account yet: nothing is sent
    expect(await screen.findByText('Enter your account first.')).toBeTruthy();
    expect(mail).not.toHaveBeenCalled();
    type('Account', '10000001');
    type('Password', 'secret');
    fireEvent.click(screen.getByTestId('login-send-code'));
    await waitFor(() => expect(screen.getByTestId('login-code-note').textContent).toBe('A sign-in code was sent to the e-mail bound to this account.'));
    expect(mail).toHaveBeenCalledWith({ uid: '10000001', email: '', type: 'login', lang: 'en-US' });
    fireEvent.click(screen.getByTestId('login-submit')); // the code is required in this mode
    expect(await screen.findByText('Please enter the 6-digit code from your e-mail.')).toBeTruthy();
    expect(signIn).not.toHaveBeenCalled();
    type('E-mail code', '123456');
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(signIn).toHaveBeenCalledWith('10000001', 'secret', '123456'));
  });

  it('says when the account has no bound e-mail to send a code to', async () => {
    vi.spyOn(authApi, 'getVerifyCode').mockRejectedValue(new ApiError('104'));
    open();
    fireEvent.click(screen.getByTestId('login-code-toggle'));
    type('Account', '10000001');
    fireEvent.click(screen.getByTestId('login-send-code'));
    await waitFor(() => expect(screen.getByTestId('login-code-note').textContent).toBe('No e-mail is bound to this account.'));
    fireEvent.click(screen.getByTestId('login-code-toggle')); // back to a password sign-in
    expect(screen.queryByTestId('login-code')).toBeNull();
  });

  it("offers the host's OAuth providers and sends the browser to the chosen one's authorization page", async () => {
    vi.spyOn(authApi, 'oauthProviders').mockResolvedValue([{ platform: 'corp', name: 'Corp SSO' }]);
    const start = vi.spyOn(authApi, 'oauthStart').mockResolvedValue({ url: 'https://sso.example/authorize?state=s1' });
    const go = vi.spyOn(browserNav, 'go').mockImplementation(() => {});
    open();
    fireEvent.click(await screen.findByText('Sign in with Corp SSO'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://sso.example/authorize?state=s1'));
    expect(start).toHaveBeenCalledWith('corp');
  });

  it('finishes an OAuth sign-in when the provider sends the browser back, and drops the code from the address', async () => {
    window.history.replaceState(null, '', '/login?platform=corp&code=c1&state=s1');
    signInOAuth.mockResolvedValue({});
    const router = open();
    await screen.findByTestId('home');
    expect(signInOAuth).toHaveBeenCalledWith('corp', 'c1', 's1');
    expect(window.location.search).toBe('');
    expect(router.state.location.pathname).toBe('/home');
  });

  it('says why an OAuth sign-in was refused', async () => {
    window.history.replaceState(null, '', '/login?platform=corp&code=stolen&state=s1');
    signInOAuth.mockRejectedValue(new LoginError('102'));
    open();
    expect((await screen.findByTestId('login-error')).textContent).toBe('User authentication failed.');
  });
});
