// What the console starts before its screens render (issue 32, first use in about a second): the live socket and
// voice of a signed-in window, and the code of the screens the dispatcher is about to see.
import { findRoute, HOME_PATH, LOGIN_PATH } from '../shared/access/routes';
import { hasToken, useSession } from '../shared/session';
import { startLive, useLiveStatus } from '../shared/socket/live';
import { groupsQuery } from '../shared/directory/api';
import { queryClient } from './Providers';
import { preloadVoice, startVoice } from '../features/voice/mount';
import { makeOfferEarly } from '../shared/voice/offer';
import { screenLoader } from './screens';
import { loadLocales } from '../i18n/locales';
import { deferTexts, loadAllTexts } from '../i18n';
import { useSettings } from '../shared/settings';

/** A window whose screens sit in the shell (the dock, push-to-talk): not the login page, not an extra window. */
export function inShell(pathname: string): boolean {
  const def = findRoute(pathname);
  return !!def && !def.child && def.path !== '/patrol-sys';
}

/** How long the first render waits for the socket's login at most (a slow or refusing server does not hold it). */
export const SOCKET_WAIT_MS = 1500;

/** How long past the socket's login the first render of a shell window waits for voice at most. */
export const VOICE_WAIT_MS = 400;

/**
 * A signed-in window logs in on the socket now, not when its shell mounts, and the first render waits for it (at
 * most SOCKET_WAIT_MS; it runs beside the boot's other loads): the screens then ask for their data with the socket
 * online, so none refetches it for a "first login". A shell window's first render also waits for push-to-talk to
 * connect (at most VOICE_WAIT_MS past the login, within SOCKET_WAIT_MS): its offer goes out with the login
 * (offer.ts), and connecting takes some 100 ms on a free main thread, but the first screen's render takes that
 * thread for several hundred milliseconds right then, and each step of the negotiation waited behind it — after a
 * reload the screen was up at ~500 ms and push-to-talk 700–800 ms later (issue 32). A window that signs in later
 * (the login page) starts voice the moment its session exists. Resolves when the first render may go.
 */
export function startSession(pathname: string): Promise<void> {
  deferTexts(); // the console's route waits for them (router.tsx), the login page fetches them once painted
  useSession.subscribe((s, prev) => {
    if (s.session?.token && !prev.session?.token && location.pathname.startsWith(LOGIN_PATH)) void startVoice();
  });
  // The dispatch tree's snapshot is asked for the moment the socket is online (it then holds this console's own
  // presence), not when the tree mounts; the directory feed finds it fetched or on its way.
  useLiveStatus.subscribe((s, prev) => {
    const p = location.pathname;
    if (s.status === 'online' && prev.status !== 'online' && (p.startsWith(LOGIN_PATH) || inShell(p))) void queryClient.prefetchQuery(groupsQuery());
  });
  if (!hasToken() || pathname.startsWith(LOGIN_PATH)) return Promise.resolve();
  let voice: Promise<void> | undefined;
  if (inShell(pathname)) {
    makeOfferEarly(); // before the voice code loads: the offer then goes out when the socket is online
    voice = startVoice();
    void preloadVoice();
  }
  // A failure is the shell's or the child frame's to report: they try again when they mount.
  const online = startLive().catch(() => {});
  const ready = voice ? online.then(() => Promise.race([voice, sleep(VOICE_WAIT_MS)])) : online;
  return Promise.race([ready, sleep(SOCKET_WAIT_MS)]);
}

/**
 * The code the console needs right after a sign-in — the UI kit and its texts, the console's texts, the shell, the
 * dispatch screen, the voice dock, the video call window — fetched once the login page has painted (the page itself does without the
 * kit), while it waits for the dispatcher, so the sign-in itself only talks to the server.
 */
export function preloadConsole(): void {
  const loads = [
    import('./Kit'),
    loadLocales(useSettings.getState().language),
    loadAllTexts(),
    import('./Shell'),
    screenLoader(findRoute(HOME_PATH)!.screen)(),
    preloadVoice(),
    import('../features/videocall/components/VideoCallWindow'),
  ];
  void Promise.all(loads).catch(() => {});
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
