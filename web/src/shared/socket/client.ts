// The one real-time socket client (docs/console-socket.md). It logs in, correlates replies to requests, hands
// events to listeners, reconnects with jittered exponential backoff and, after a reconnect, asks the server for the
// durable events it missed (`sync`) and tells the app to resync its REST data.

import { backoffDelay, FrameSocket, SocketError, type InFrame, type SocketStatus } from './frames';
import { NodeList } from './nodes';

export { backoffDelay, SOCKET_REQUEST_TIMEOUT_MS, SocketError, type SocketEvent, type SocketStatus } from './frames';

export const SOCKET_LOGIN_TIMEOUT_MS = 15_000; // spec §9 "Login-to-socket timeout 15 s"

/** session.replaced's data: the login that replaced this session, where and when (docs/console-socket.md). */
export interface ReplacedBy {
  msId?: string;
  ip?: string;
  time?: number;
}

export interface SocketOptions {
  /** The first socket URL; a cluster's login reply adds its other nodes, tried in turn after a drop (nodes.ts). */
  url: string;
  token: () => string | undefined;
  /** Called after every successful re-login that followed a drop (not the first login). */
  onResync?: () => void;
  /** The server refused the token ("105") or replaced this session ("7", with where and when): stop and sign out. */
  onRejected?: (code: string, by?: ReplacedBy) => void;
  onStatus?: (s: SocketStatus) => void;
  WebSocketImpl?: typeof WebSocket;
  random?: () => number;
}

export class SocketClient extends FrameSocket {
  private attempt = 0;
  private everOnline = false;
  private lastSeq = 0;
  /** The signed-in customer (the login reply's customerId): names the gps_{x}.bin snapshot. */
  customerId = 0;
  private readonly opts: SocketOptions;
  /** The nodes this socket may use: opts.url, then those the login listed. */
  readonly nodes: NodeList;

  constructor(opts: SocketOptions) {
    super();
    this.opts = opts;
    this.nodes = new NodeList(opts.url, Math.floor((opts.random ?? Math.random)() * 1024));
  }

  /**
   * Where the next sync starts: the mark the console had when its connection dropped, kept until a sync has read
   * everything after it. Live events of a connection whose sync then failed move lastSeq, not this: syncing from
   * lastSeq would skip what was missed before them.
   */
  private resumeFrom: number | undefined;

  /** Replays every durable event after the drop's mark, page by page while the server says there are more. */
  private async syncAll(): Promise<void> {
    let after = this.resumeFrom ?? this.lastSeq;
    for (let page = 0; page < 1000; page++) {
      const r = await this.request<{ last?: number; more?: boolean }>('sync', { after });
      if (typeof r?.last === 'number') {
        after = Math.max(after, r.last);
        if (r.last > this.lastSeq) this.lastSeq = r.last;
      }
      if (!r?.more) {
        this.resumeFrom = undefined;
        return;
      }
    }
  }

  /** Opens the socket and logs in; rejects with the login code, or 'timeout' after 15 s. */
  start(): Promise<void> {
    this.stopped = false;
    return this.open();
  }

  protected statusChanged(s: SocketStatus) {
    this.opts.onStatus?.(s);
  }

  private open(): Promise<void> {
    const WS = this.opts.WebSocketImpl ?? WebSocket;
    const token = this.opts.token();
    if (!token) return Promise.reject(new SocketError('105', 'no token'));
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    // The token goes in the login frame, not the URL (URLs end up in logs).
    const ws = new WS(this.nodes.current());
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
        this.request<{ msId: string; lastSeq?: number; customerId?: number; nodes?: string[] }>('session.login', { token, client: 'console' }, SOCKET_LOGIN_TIMEOUT_MS)
          .then((reply) => {
            if (typeof reply?.customerId === 'number') this.customerId = reply.customerId;
            this.nodes.learn(reply?.nodes);
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
      // Sign-in stops the client itself when its socket login fails.
      this.wire(ws, settle);
      ws.onerror = () => {
        /* onclose follows */
      };
    });
  }

  protected scheduleReconnect() {
    if (this.everOnline) this.resumeFrom ??= this.lastSeq; // a drop: its mark stays until a sync completes
    this.setStatus('reconnecting');
    this.nodes.next(); // a failed attempt or a drop: the next node of a cluster (the same URL when alone)
    const delay = backoffDelay(this.attempt++, this.opts.random);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open().catch(() => {});
    }, delay);
  }

  /** Events: the durable mark follows their seq; session.replaced ends this session. */
  protected override onFrame(msg: InFrame) {
    if (typeof msg.seq === 'number' && msg.seq > this.lastSeq) this.lastSeq = msg.seq;
    if (msg.type === 'session.replaced') {
      this.stop();
      this.opts.onRejected?.('7', msg.data as ReplacedBy | undefined);
    }
    super.onFrame(msg);
  }
}

export function socketUrl(path = '/ds/ws'): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}
