// The window's one live socket. The app configures it once (token source, what to do when the server rejects the
// session); features subscribe to events with live().on(...) and register resync work with onResync().
import { SocketClient, socketUrl, type ReplacedBy, type SocketStatus } from './client';
import { create } from 'zustand';

interface LiveConfig {
  token: () => string | undefined;
  onRejected: (code: string, by?: ReplacedBy) => void;
}

let config: LiveConfig = { token: () => undefined, onRejected: () => {} };
let client: SocketClient | undefined;
let starting: Promise<void> | undefined;
const resync = new Set<() => void>();

export const useLiveStatus = create<{ status: SocketStatus }>(() => ({ status: 'idle' }));

export function configureLive(c: LiveConfig): void {
  config = c;
}

export function live(): SocketClient {
  client ??= new SocketClient({
    url: socketUrl(),
    token: () => config.token(),
    onResync: () => resync.forEach((fn) => fn()),
    onRejected: (code, by) => config.onRejected(code, by),
    onStatus: (status) => useLiveStatus.setState({ status }),
  });
  return client;
}

/** Connects and logs in (once; later calls share the same attempt while it is online). */
export function startLive(): Promise<void> {
  const c = live();
  if (c.status === 'online' || c.status === 'reconnecting') return Promise.resolve();
  starting ??= c.start().finally(() => {
    starting = undefined;
  });
  return starting;
}

export function stopLive(): void {
  client?.stop();
}

/** Work to redo after a reconnect (refetch REST state the socket may have missed). */
export function onResync(fn: () => void): () => void {
  resync.add(fn);
  return () => resync.delete(fn);
}
