// The phone app's socket: a terminal connection of docs/terminal-protocol.md. It logs in with the account and
// password, answers the server's requests (each exactly once), reconnects with jittered backoff and logs in again.
import { backoffDelay, FrameSocket, SocketError, type InFrame, type SocketStatus } from '../shared/socket/frames';
import { NodeList } from '../shared/socket/nodes';

export interface LoginReply {
  msId: string;
  customerId: number;
  kind: string;
  serverTime: number;
  protocol: number;
  /** Token for the next logins instead of the password (docs/terminal-protocol.md "Login"). */
  resume?: string;
  /** A cluster's live nodes (base URLs, this one first): where the app goes when its node stops answering. */
  nodes?: string[];
}

export type TermStatus = SocketStatus;
/** A refused request or login: its code (the shared socket error). */
export { SocketError as TermError };

/** What a handler of a server request returns: nothing (= "0"), or a code and data. */
export type RequestAnswer = void | { code?: string; data?: unknown; msg?: string };
type RequestHandler = (data: Record<string, unknown>) => RequestAnswer | Promise<RequestAnswer>;

export interface TermOptions {
  /** The first socket URL; a cluster's login reply adds its other nodes, tried in turn after a drop. */
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

export class TerminalSocket extends FrameSocket {
  private handlers = new Map<string, RequestHandler>();
  private attempt = 0;
  protected override stopped = true;
  private everOnline = false;
  private pingMs = 25_000;
  /** The resume token of the last login: reconnects present it instead of the password. */
  private resume?: string;
  private readonly opts: TermOptions;
  /** The nodes this socket may use: opts.url, then those the login listed (shared/socket/nodes.ts). */
  readonly nodes: NodeList;

  constructor(opts: TermOptions) {
    super();
    this.opts = opts;
    this.nodes = new NodeList(opts.url);
  }

  /** Connects and logs in; resolves with the login reply or rejects with the refusal code. */
  start(): Promise<LoginReply> {
    this.stopped = false;
    return this.open();
  }

  /** The heartbeat (`param.set heartbeat`): how often the app pings. */
  setHeartbeat(seconds: number): void {
    this.pingMs = Math.max(5, seconds) * 1000;
    if (this.status === 'online') this.startPing();
  }

  /** Registers the answer to a server → terminal request type. */
  handle(type: string, fn: RequestHandler): () => void {
    this.handlers.set(type, fn);
    return () => this.handlers.delete(type);
  }

  protected statusChanged(s: TermStatus) {
    this.opts.onStatus?.(s);
  }

  private startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ id: this.nextId++, type: 'ping' }), this.pingMs);
  }

  private open(): Promise<LoginReply> {
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(this.nodes.current());
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
            this.nodes.learn(r.nodes);
            const again = this.everOnline;
            this.everOnline = true;
            this.attempt = 0;
            this.setStatus('online');
            this.startPing();
            this.opts.onLogin?.(r, again);
            settle(undefined, r);
          })
          .catch((e: SocketError) => {
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
      this.wire(ws, settle);
    });
  }

  protected scheduleReconnect() {
    this.setStatus('reconnecting');
    this.nodes.next(); // a failed attempt or a drop: the next node of a cluster, with the resume token
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

  /** A server request is answered exactly once; session.replaced signs the app out; events go to listeners. */
  protected override onFrame(msg: InFrame) {
    if (typeof msg.id === 'number') {
      void this.answer(msg.id, msg.type, (msg.data ?? {}) as Record<string, unknown>);
      return;
    }
    if (msg.type === 'session.replaced') {
      this.stop();
      this.opts.onRejected?.('7');
    }
    super.onFrame(msg);
  }
}

/** The code of a refused request, "failed" for anything else. */
export function codeOf(e: unknown): string {
  return e instanceof SocketError ? e.code : 'failed';
}

/** What the reporters (location, battery) need of the socket. */
export type ReportSocket = Pick<TerminalSocket, 'status' | 'request'>;

export function termSocketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ds/ws`;
}
