// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The boot's gate before the first render (issue 32): the socket's login, and in a shell window push-to-talk too —
// each a bounded time, so a slow server or a voice that cannot connect never holds the screen.
const live = vi.hoisted(() => ({ online: undefined as undefined | (() => void) }));
const voice = vi.hoisted(() => ({ connected: undefined as undefined | (() => void), started: 0, early: 0 }));

vi.mock('../shared/session', async (orig) => ({ ...(await orig<object>()), hasToken: () => true }));
vi.mock('../shared/socket/live', async (orig) => ({
  ...(await orig<object>()),
  startLive: () => new Promise<void>((r) => (live.online = r)),
}));
vi.mock('../features/voice/mount', () => ({
  preloadVoice: () => Promise.resolve(),
  startVoice: () => {
    voice.started++;
    return new Promise<void>((r) => (voice.connected = r));
  },
}));
vi.mock('../shared/voice/offer', () => ({ makeOfferEarly: () => voice.early++ }));

const { SOCKET_WAIT_MS, VOICE_WAIT_MS, startSession } = await import('./startup');

/** Whether the boot's promise settled within ms of fake time. */
async function settledWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(ms);
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
  voice.started = voice.early = 0;
});
afterEach(() => vi.useRealTimers());

describe('the first render of a signed-in window', () => {
  it('in the shell waits for the socket and then for voice, which has its offer made at boot', async () => {
    const ready = startSession('/home');
    expect([voice.early, voice.started]).toEqual([1, 1]);
    expect(await settledWithin(ready, 100)).toBe(false); // the socket is not online
    live.online!();
    expect(await settledWithin(ready, 50)).toBe(false); // voice is not connected
    voice.connected!();
    expect(await settledWithin(ready, 0)).toBe(true);
  });

  it('waits for voice VOICE_WAIT_MS past the login at most', async () => {
    const ready = startSession('/home');
    await vi.advanceTimersByTimeAsync(100);
    live.online!();
    expect(await settledWithin(ready, VOICE_WAIT_MS - 1)).toBe(false);
    expect(await settledWithin(ready, 1)).toBe(true);
  });

  it('waits SOCKET_WAIT_MS in all at most', async () => {
    expect(await settledWithin(startSession('/home'), SOCKET_WAIT_MS)).toBe(true);
  });

  it('outside the shell (a child window) waits for the socket only, and starts no voice', async () => {
    const ready = startSession('/log-child');
    expect(voice.started).toBe(0);
    live.online!();
    expect(await settledWithin(ready, 0)).toBe(true);
  });
});
