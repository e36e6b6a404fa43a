import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { initI18n } from '../../../i18n';
import { LoginError } from '../signIn';
import { clearSignedOut, noteSignedOut, useSignedOut } from '../signedOut';
import LoginPage from './LoginPage';

// The login page without the UI kit (issue 32): the same fields, checks, refusals and notices as the antd form
// it replaced, by label and test id.
const signIn = vi.hoisted(() => vi.fn());
vi.mock('../signIn', async (real) => ({ ...(await real<typeof import('../signIn')>()), signIn }));

beforeAll(async () => {
  await initI18n('en-US');
});
afterEach(() => {
  cleanup();
  signIn.mockReset();
  clearSignedOut();
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
});
