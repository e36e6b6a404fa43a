// What the console starts before its screens render (issue 32, first use in about a second): the live socket and
// voice of a signed-in window, and the code of the screens the dispatcher is about to see.
import { findRoute, HOME_PATH, LOGIN_PATH } from '../shared/access/routes';
import { hasToken, useSession } from '../shared/session';
import { startLive } from '../shared/socket/live';
import { preloadVoice, startVoice } from '../features/voice/mount';
import { screenLoader } from './screens';

/** A window whose screens sit in the shell (the dock, push-to-talk): not the login page, not an extra window. */
export function inShell(pathname: string): boolean {
  const def = findRoute(pathname);
  return !!def && !def.child && def.path !== '/patrol-sys';
}

/**
 * A signed-in window logs in on the socket now, not when its shell mounts: by the time a screen asks for its data
 * the socket is usually online, so no screen refetches it for a "first login", and push-to-talk connects while the
 * tree renders. A window that signs in later (the login page) starts the same the moment its session exists.
 */
export function startSession(pathname: string): void {
  if (hasToken() && !pathname.startsWith(LOGIN_PATH)) {
    startLive().catch(() => {}); // the shell or the child frame reports a failure when it mounts and tries again
    if (inShell(pathname)) startVoice();
  }
  useSession.subscribe((s, prev) => {
    if (s.session?.token && !prev.session?.token && location.pathname.startsWith(LOGIN_PATH)) startVoice();
  });
}

/**
 * The code the console needs right after a sign-in — the shell, the dispatch screen, the voice dock, the video
 * call window — fetched while the login page waits for the dispatcher, so the sign-in itself only talks to the
 * server.
 */
export function preloadConsole(): void {
  const loads = [import('./Shell'), screenLoader(findRoute(HOME_PATH)!.screen)(), preloadVoice()];
  void Promise.all(loads).catch(() => {});
}
