// The phone app's socket: a terminal connection of docs/terminal-protocol.md. It logs in with the account and
// password, answers the server's requests (each exactly once), reconnects with jittered backoff and logs in again.
import { backoffDelay } from '../shared/socket/client';

export interface LoginReply {
  msId: string;
  customerId: number;
  kind: string;
  serverTime: number;
  protocol: number;
  /** Token for the next logins instead of the password (docs/terminal-protocol.md "Login"). */
  resume?: string;
}

export type TermStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'closed';

export class TermError extends Error {
  readonly code: string;
  constructor(code: string, msg = '') {
    super(msg || code);
    this.code = code;
  }
}

/** What a handler of a server request returns: nothing (= "0"), or a code and data. */
export type RequestAnswer = void | { code?: string; data?: unknown; msg?: string };
type RequestHandler = (data: Record<string, unknown>) => RequestAnswer | Promise<RequestAnswer>;
type Listener = (e: { type: string; data: unknown }) => void;

export interface TermOptions {
  url: string;
  uid: string;
  auth: string;
  onStatus?: (s: TermStatus) => void;
  /** After every successful login (first and after a reconnect). */
  onLogin?: (r: LoginReply, again: boolean) => void;
  /** The login was refused (bad password, locked, disabled…) or the account logged in elsewhere ("7"). */
  onRejected?: (code: string) => void;
}

const LOGIN_REFUSED = new Set(['1', '2', '4', '6', '103', '104', '105', '107', '502', '504']);

export class TerminalSocket {
  private ws?: WebSocket;
  private nextId = 1;
  private pending = new Map<number, { resolve: (d: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private listeners = new Map<string, Set<Listener>>();
  private handlers = new Map<string, RequestHandler>();
  private attempt = 0;
  private stopped = true;
  private everOnline = false;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private pingTimer?: ReturnType<typeof setInterval>;
  private pingMs = 25_000;
  /** The resume token of the last login: reconnects present it instead of the password. */
  private resume?: string;
  status: TermStatus = 'idle';
  private readonly opts: TermOptions;

  constructor(opts: TermOptions) {
    this.opts = opts;
  }

  /** Connects and logs in; resolves with the login reply or rejects with the refusal code. */
  start(): Promise<LoginReply> {
    this.stopped = false;
    return this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.fail(new TermError('closed'));
    this.ws?.close(1000);
    this.ws = undefined;
    this.setStatus('closed');
  }

  /** The heartbeat (`param.set heartbeat`): how often the app pings. */
  setHeartbeat(seconds: number): void {
    this.pingMs = Math.max(5, seconds) * 1000;
    if (this.status === 'online') this.startPing();
  }

  on<D = unknown>(type: string, fn: (e: { type: string; data: D }) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(fn as Listener);
    return () => set.delete(fn as Listener);
  }

  /** Registers the answer to a server → terminal request type. */
  handle(type: string, fn: RequestHandler): () => void {
    this.handlers.set(type, fn);
    return () => this.handlers.delete(type);
  }

  request<R = unknown>(type: string, data: unknown = {}, timeoutMs = 10_000): Promise<R> {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1 || (this.status !== 'online' && type !== 'session.login')) return Promise.reject(new TermError('4', 'not online'));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new TermError('timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (d: unknown) => void, reject, timer });
      ws.send(JSON.stringify({ id, type, data }));
    });
  }

  private setStatus(s: TermStatus) {
    this.status = s;
    this.opts.onStatus?.(s);
  }

  private startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ id: this.nextId++, type: 'ping' }), this.pingMs);
  }

  private open(): Promise<LoginReply> {
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(this.opts.url);
    this.ws = ws;
    return new Promise<LoginReply>((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error, r?: LoginReply) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve(r!);
      };
      ws.onopen = () => {
        const viaResume = this.resume !== undefined;
        const login = viaResume
          ? { client: 'terminal', uid: this.opts.uid, resume: this.resume }
          : { client: 'terminal', uid: this.opts.uid, auth: this.opts.auth };
        this.request<LoginReply>('session.login', login, 15_000)
          .then((r) => {
            if (r.resume) this.resume = r.resume;
            const again = this.everOnline;
            this.everOnline = true;
            this.attempt = 0;
            this.setStatus('online');
            this.startPing();
            this.opts.onLogin?.(r, again);
            settle(undefined, r);
          })
          .catch((e: TermError) => {
            settle(e);
            if (viaResume && e.code === '105') {
              // The token expired or was ended (password reset): log in with the password at once.
              this.resume = undefined;
              this.attempt = 0;
              ws.close();
            } else if (LOGIN_REFUSED.has(e.code)) {
              this.stop();
              this.opts.onRejected?.(e.code);
            } else ws.close();
          });
      };
      ws.onmessage = (m) => this.dispatch(String(m.data));
      ws.onclose = () => {
        clearInterval(this.pingTimer);
        this.fail(new TermError('4', 'disconnected'));
        settle(new TermError('503', 'socket closed'));
        if (this.ws === ws) this.ws = undefined;
        if (!this.stopped) this.scheduleReconnect();
      };
    });
  }

  private scheduleReconnect() {
    this.setStatus('reconnecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open().catch(() => {});
    }, backoffDelay(this.attempt++));
  }

  /** Reconnect now (the page came back to the foreground, the network came back). */
  kick(): void {
    if (this.stopped || this.status === 'online' || this.status === 'connecting') return;
    if (this.ws && this.ws.readyState <= 1) return;
    clearTimeout(this.retryTimer);
    this.open().catch(() => {});
  }

  private send(frame: unknown) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(frame));
  }

  private fail(err: Error) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  private async answer(id: number, type: string, data: Record<string, unknown>) {
    const fn = this.handlers.get(type);
    if (!fn) {
      this.send({ re: id, type, code: '400', msg: 'unknown request' });
      return;
    }
    try {
      const a = (await fn(data)) || {};
      this.send({ re: id, type, code: a.code ?? '0', ...(a.msg ? { msg: a.msg } : {}), ...(a.data !== undefined ? { data: a.data } : {}) });
    } catch (e) {
      this.send({ re: id, type, code: '500', msg: e instanceof Error ? e.message : String(e) });
    }
  }

  private dispatch(raw: string) {
    let msg: { id?: number; re?: number; type: string; code?: string; msg?: string; data?: unknown };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof msg.re === 'number') {
      const p = this.pending.get(msg.re);
      if (!p) return;
      this.pending.delete(msg.re);
      clearTimeout(p.timer);
      if (String(msg.code) === '0') p.resolve(msg.data ?? {});
      else p.reject(new TermError(String(msg.code), msg.msg));
      return;
    }
    if (typeof msg.id === 'number') {
      void this.answer(msg.id, msg.type, (msg.data ?? {}) as Record<string, unknown>);
      return;
    }
    if (msg.type === 'session.replaced') {
      this.stop();
      this.opts.onRejected?.('7');
    }
    const e = { type: msg.type, data: msg.data ?? {} };
    for (const key of [msg.type, '*']) this.listeners.get(key)?.forEach((fn) => fn(e));
  }
}

export function termSocketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ds/ws`;
}
