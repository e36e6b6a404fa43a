// The frame layer both socket clients share (docs/console-socket.md, docs/terminal-protocol.md): requests with an
// `id` answered by a reply with `re`, a timeout per request, events handed to listeners by type (and '*').
// The console client (client.ts) and the phone app's terminal socket (phone/socket.ts) add their own login,
// reconnect and server-request handling on top.

export const SOCKET_REQUEST_TIMEOUT_MS = 10_000;

export interface SocketEvent<D = unknown> {
  type: string;
  seq?: number;
  data: D;
}

/** A frame from the server: a reply (`re`), a request to answer (`id`), or an event. */
export interface InFrame {
  id?: number;
  re?: number;
  type: string;
  seq?: number;
  code?: string;
  msg?: string;
  data?: unknown;
}

export class SocketError extends Error {
  readonly code: string;
  constructor(code: string, msg = '') {
    super(msg || code);
    this.name = 'SocketError';
    this.code = code;
  }
}

export type SocketStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'closed';

/** Full-jitter exponential backoff: uniform in [minMs, min(capMs, baseMs·2^attempt)]. */
export function backoffDelay(attempt: number, random: () => number = Math.random, baseMs = 1000, capMs = 30_000, minMs = 250): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(minMs + random() * Math.max(0, ceiling - minMs));
}

type Listener = (e: SocketEvent) => void;

export abstract class FrameSocket {
  protected ws?: WebSocket;
  protected nextId = 1;
  private pending = new Map<number, { resolve: (d: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private listeners = new Map<string, Set<Listener>>();
  status: SocketStatus = 'idle';
  /** Set by stop(): no reconnect after it. */
  protected stopped = false;
  protected retryTimer?: ReturnType<typeof setTimeout>;
  protected pingTimer?: ReturnType<typeof setInterval>;

  /** Told of every status change (the clients' onStatus option). */
  protected abstract statusChanged(s: SocketStatus): void;

  /** Closes the socket for good: no reconnect; requests still waiting fail with 'closed'. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.failPending(new SocketError('closed'));
    this.ws?.close(1000);
    this.ws = undefined;
    this.setStatus('closed');
  }

  /** Plans the next connection attempt after a drop (each client's own backoff and login). */
  protected abstract scheduleReconnect(): void;

  /**
   * Wires a new socket's frames and its close: requests still waiting fail, a login still waiting settles with
   * "503", and the client reconnects unless stopped. A close of a socket already replaced changes nothing else.
   */
  protected wire(ws: WebSocket, settle: (err: Error) => void) {
    ws.onmessage = (m) => this.dispatch(String(m.data));
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      this.failPending(new SocketError('4', 'disconnected'));
      settle(new SocketError('503', 'socket closed'));
      if (this.ws === ws) this.ws = undefined;
      // Keep trying until stop(): a first connection that failed (server restarting, network down) retries too.
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  protected setStatus(s: SocketStatus) {
    this.status = s;
    this.statusChanged(s);
  }

  on<D = unknown>(type: string, fn: (e: SocketEvent<D>) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(fn as Listener);
    return () => set.delete(fn as Listener);
  }

  /** Sends a request and resolves with the reply's data; rejects with a SocketError carrying the reply code. */
  request<R = unknown>(type: string, data: unknown = {}, timeoutMs = SOCKET_REQUEST_TIMEOUT_MS): Promise<R> {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1 || (this.status !== 'online' && type !== 'session.login')) {
      return Promise.reject(new SocketError('4', 'not online'));
    }
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SocketError('timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (d: unknown) => void, reject, timer });
      ws.send(JSON.stringify({ id, type, data }));
    });
  }

  protected send(frame: unknown) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(frame));
  }

  /** Rejects every request still waiting for its reply. */
  protected failPending(err: Error) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  /** Parses a frame: replies settle their request; anything else goes to onFrame. */
  protected dispatch(raw: string) {
    let msg: InFrame;
    try {
      msg = JSON.parse(raw) as InFrame;
    } catch {
      return;
    }
    if (typeof msg.re === 'number') {
      const p = this.pending.get(msg.re);
      if (!p) return;
      this.pending.delete(msg.re);
      clearTimeout(p.timer);
      if (String(msg.code) === '0') p.resolve(msg.data ?? {});
      else p.reject(new SocketError(String(msg.code), msg.msg));
      return;
    }
    this.onFrame(msg);
  }

  /** A server request or event; the default hands it to the listeners. */
  protected onFrame(msg: InFrame) {
    this.emit({ type: msg.type, ...(typeof msg.seq === 'number' ? { seq: msg.seq } : {}), data: msg.data ?? {} });
  }

  protected emit(ev: SocketEvent) {
    for (const key of [ev.type, '*']) this.listeners.get(key)?.forEach((fn) => fn(ev));
  }
}
