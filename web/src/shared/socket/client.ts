// The one real-time socket client (docs/console-socket.md). It logs in, correlates replies to requests, hands
// events to listeners, reconnects with jittered exponential backoff and, after a reconnect, asks the server for the
// durable events it missed (`sync`) and tells the app to resync its REST data.

export const SOCKET_LOGIN_TIMEOUT_MS = 15_000; // spec §9 "Login-to-socket timeout 15 s"
export const SOCKET_REQUEST_TIMEOUT_MS = 10_000;

export interface SocketEvent<D = unknown> {
  type: string;
  seq?: number;
  data: D;
}

interface Reply {
  re: number;
  type: string;
  code: string;
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

export interface SocketOptions {
  url: string;
  token: () => string | undefined;
  /** Called after every successful re-login that followed a drop (not the first login). */
  onResync?: () => void;
  /** The server refused the token ("105") or replaced this session: stop and sign out. */
  onRejected?: (code: string) => void;
  onStatus?: (s: SocketStatus) => void;
  WebSocketImpl?: typeof WebSocket;
  random?: () => number;
}

/** Full-jitter exponential backoff: uniform in [minMs, min(capMs, baseMs·2^attempt)]. */
export function backoffDelay(attempt: number, random: () => number = Math.random, baseMs = 1000, capMs = 30_000, minMs = 250): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(minMs + random() * Math.max(0, ceiling - minMs));
}

type Listener = (e: SocketEvent) => void;

export class SocketClient {
  private ws?: WebSocket;
  private nextId = 1;
  private pending = new Map<number, { resolve: (d: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private listeners = new Map<string, Set<Listener>>();
  private attempt = 0;
  private stopped = false;
  private everOnline = false;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private pingTimer?: ReturnType<typeof setInterval>;
  private lastSeq = 0;

  /** Replays every durable event after the mark, page by page while the server says there are more. */
  private async syncAll(): Promise<void> {
    for (let page = 0; page < 1000; page++) {
      const r = await this.request<{ last?: number; more?: boolean }>('sync', { after: this.lastSeq });
      if (typeof r?.last === 'number' && r.last > this.lastSeq) this.lastSeq = r.last;
      if (!r?.more) return;
    }
  }
  status: SocketStatus = 'idle';
  private readonly opts: SocketOptions;

  constructor(opts: SocketOptions) {
    this.opts = opts;
  }

  /** Opens the socket and logs in; rejects with the login code, or 'timeout' after 15 s. */
  start(): Promise<void> {
    this.stopped = false;
    return this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.failPending(new SocketError('closed'));
    this.ws?.close(1000);
    this.ws = undefined;
    this.setStatus('closed');
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

  private setStatus(s: SocketStatus) {
    this.status = s;
    this.opts.onStatus?.(s);
  }

  private open(): Promise<void> {
    const WS = this.opts.WebSocketImpl ?? WebSocket;
    const token = this.opts.token();
    if (!token) return Promise.reject(new SocketError('105', 'no token'));
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    const url = `${this.opts.url}${this.opts.url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    const ws = new WS(url);
    this.ws = ws;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(loginTimer);
        if (err) reject(err);
        else resolve();
      };
      const loginTimer = setTimeout(() => {
        settle(new SocketError('timeout', 'login timeout'));
        ws.close();
      }, SOCKET_LOGIN_TIMEOUT_MS);

      ws.onopen = () => {
        this.request<{ msId: string; lastSeq?: number }>('session.login', { token, client: 'console' }, SOCKET_LOGIN_TIMEOUT_MS)
          .then((reply) => {
            // A console that has seen no durable event yet starts its sync mark at the server's newest one.
            if (this.lastSeq === 0 && typeof reply?.lastSeq === 'number') this.lastSeq = reply.lastSeq;
            const wasOnline = this.everOnline;
            this.everOnline = true;
            this.attempt = 0;
            this.setStatus('online');
            clearInterval(this.pingTimer);
            this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 25_000);
            if (wasOnline) {
              this.syncAll().catch(() => {});
              this.opts.onResync?.();
            }
            settle();
          })
          .catch((e: SocketError) => {
            settle(e);
            if (e.code === '105' || e.code === '6') {
              this.stop();
              this.opts.onRejected?.(e.code);
            } else ws.close();
          });
      };
      ws.onmessage = (m) => this.dispatch(String(m.data));
      ws.onclose = () => {
        clearInterval(this.pingTimer);
        this.failPending(new SocketError('4', 'disconnected'));
        settle(new SocketError('503', 'socket closed'));
        if (this.ws === ws) this.ws = undefined;
        // Keep trying until stop(): a first connection that failed (server restarting, network down) retries too;
        // sign-in stops the client itself when its socket login fails.
        if (!this.stopped) this.scheduleReconnect();
      };
      ws.onerror = () => {
        /* onclose follows */
      };
    });
  }

  private scheduleReconnect() {
    this.setStatus('reconnecting');
    const delay = backoffDelay(this.attempt++, this.opts.random);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open().catch(() => {});
    }, delay);
  }

  private send(frame: unknown) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(frame));
  }

  private failPending(err: Error) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  private dispatch(raw: string) {
    let msg: Reply | SocketEvent;
    try {
      msg = JSON.parse(raw) as Reply | SocketEvent;
    } catch {
      return;
    }
    if ('re' in msg && typeof msg.re === 'number') {
      const p = this.pending.get(msg.re);
      if (!p) return;
      this.pending.delete(msg.re);
      clearTimeout(p.timer);
      if (String(msg.code) === '0') p.resolve(msg.data ?? {});
      else p.reject(new SocketError(String(msg.code), msg.msg));
      return;
    }
    const ev = msg as SocketEvent;
    if (typeof ev.seq === 'number' && ev.seq > this.lastSeq) this.lastSeq = ev.seq;
    if (ev.type === 'session.replaced') {
      this.stop();
      this.opts.onRejected?.('7');
    }
    for (const key of [ev.type, '*']) this.listeners.get(key)?.forEach((fn) => fn(ev));
  }
}

export function socketUrl(path = '/ds/ws'): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}
