import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './router';
import { Providers } from './Providers';
import { initI18n } from '../i18n';
import { useSession } from '../shared/session';
import { deleteTokenCookie, getTokenCookie, setTokenCookie } from '../shared/utils/cookies';

// The real route table and guard component in jsdom: what a user sees when opening an address.
vi.setConfig({ testTimeout: 30_000 }); // the first test pays for loading the lazy routes

beforeAll(async () => {
  await initI18n('en-US');
});
afterEach(() => {
  cleanup();
  deleteTokenCookie();
  useSession.setState({ session: undefined });
});

function open(path: string) {
  window.history.replaceState({}, '', path);
  const router = createAppRouter();
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

function signedIn() {
  useSession.getState().setSession({
    token: 'tok',
    account: '10000001',
    userInfo: { msId: '10000001', msName: 'Dispatcher', msType: '20', gId: '1', gName: 'Ops', pttGroup: '1', secretKey: '' },
    version: '1',
    timeZoneMs: 0,
    mediaServer: [],
    mediaFileUrl: '',
    dsConfig: {},
    accountType: '1',
  });
}

describe('router with guards', () => {
  it('sends /home to the sign-in page without a token', async () => {
    const router = open('/home');
    expect(await screen.findByTestId('login-page', {}, { timeout: 10_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('opens a child copy without a token, without the shell', async () => {
    const router = open('/log-child');
    expect(await screen.findByTestId('child-frame', {}, { timeout: 10_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/log-child');
    expect(screen.queryByTestId('shell')).toBeNull();
  });

  it('deletes the token cookie when /login is opened with a token', async () => {
    signedIn();
    expect(getTokenCookie()).toBe('tok');
    open('/login');
    expect(await screen.findByTestId('login-page', {}, { timeout: 10_000 })).toBeTruthy();
    expect(getTokenCookie()).toBeUndefined();
  });

  it('sends an unknown path to /404 with a token', async () => {
    signedIn();
    setTokenCookie('tok');
    const router = open('/nowhere-at-all');
    await screen.findByTestId('not-found', {}, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/404');
  });
});
