// Test helpers: a real TerminalSocket over the scripted WebSocket (shared/test/fakeWebSocket.ts), logged in, answers
// to the requests it sends by type, and a signed-in session on it for the parts under test.
import { afterEach, beforeEach, vi } from 'vitest';
import { FakeWS } from '../../shared/test/fakeWebSocket';
import { PhoneLink } from '../session/link';
import { useSession } from '../session/store';
import { TerminalSocket, type TermOptions } from '../socket';
import { useNotice } from '../ui/notice';

export const LOGIN = { msId: '10000156', customerId: 1, kind: 'terminal', serverTime: 0, protocol: 1 };

/** Installs the scripted WebSocket (call in beforeEach; vi.unstubAllGlobals() undoes it). */
export function fakeSockets(): void {
  FakeWS.all = [];
  vi.stubGlobal('WebSocket', FakeWS);
}

/** The newest scripted WebSocket. */
export const lastWS = (): FakeWS => FakeWS.all[FakeWS.all.length - 1]!;

/** The frames of `type` the socket sent. */
export const sent = (ws: FakeWS, type: string) => ws.sent.filter((f) => f.type === type);

/** Answers the newest unanswered request of `type`. */
export function answer(ws: FakeWS, type: string, code = '0', data: unknown = {}): void {
  const i = ws.sent.map((f) => f.type).lastIndexOf(type);
  if (i < 0) throw new Error(`no ${type} request was sent (sent: ${ws.sent.map((f) => f.type).join(', ')})`);
  ws.reply(i, code, data);
}

/** A server request to the terminal; resolves with the terminal's reply frame. */
export async function serverRequest(ws: FakeWS, type: string, data: unknown, id = 9000 + ws.sent.length) {
  ws.onmessage?.({ data: JSON.stringify({ id, type, data }) });
  await vi.waitFor(() => {
    if (!ws.sent.some((f) => (f as { re?: number }).re === id)) throw new Error(`no reply to ${type}`);
  });
  return ws.sent.find((f) => (f as { re?: number }).re === id) as unknown as { re: number; type: string; code: string; msg?: string };
}

/** Opens the socket and completes the login. */
export async function onlineSocket(opts: Partial<TermOptions> = {}): Promise<{ sock: TerminalSocket; ws: FakeWS }> {
  const sock = new TerminalSocket({ url: 'ws://x/ds/ws', uid: LOGIN.msId, auth: '123456', ...opts });
  const started = sock.start();
  const ws = lastWS();
  ws.open();
  answer(ws, 'session.login', '0', LOGIN);
  await started;
  return { sock, ws };
}

/** A signed-in session as LOGIN.msId: an online socket answering with the given parts, the session's link on it. */
export async function signedIn(...parts: ((s: TerminalSocket) => void)[]) {
  const { sock, ws } = await onlineSocket();
  parts.forEach((attach) => attach(sock));
  const link = new PhoneLink(sock, LOGIN.msId);
  useSession.setState({ phase: 'ready', uid: LOGIN.msId, link });
  return { sock, ws, link };
}

/** Ends the session of signedIn() and the scripted sockets (afterEach). */
export function endSession(): void {
  useSession.getState().link?.end();
  useSession.setState({ phase: 'login', link: undefined });
  vi.unstubAllGlobals();
}

/**
 * The frame of a card's tests: before each, scripted sockets, the card's own state reset (resets), no notice and
 * a session ready as LOGIN.msId whose link signedIn() makes; after each, endSession.
 */
export function cardSession(...resets: (() => void)[]): void {
  beforeEach(() => {
    fakeSockets();
    resets.forEach((reset) => reset());
    useNotice.setState({ notice: undefined });
    useSession.setState({ phase: 'ready', uid: LOGIN.msId, link: undefined });
  });
  afterEach(endSession);
}
