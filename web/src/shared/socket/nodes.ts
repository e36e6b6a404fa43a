// The nodes a browser socket may use (docs/operations.md "Clients"): the URL it was given first (its page's
// node, or the load balancer), then the other live nodes of a cluster that its login reply listed (`nodes`:
// base URLs, this node first). After a failed attempt or a dropped connection the client moves to the next
// one, waiting the jittered backoff of frames.ts in between: the rules of the Go clients
// (internal/platform/failover), so a dead node's clients spread over the others.

/** The socket URL of a node's base URL (http://host:port → ws://host:port/ds/ws); undefined when it is not one. */
export function wsUrlOf(base: string, path = '/ds/ws'): string | undefined {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}${path}`;
}

export class NodeList {
  private urls: string[];
  private at = 0;
  private readonly spread: number;

  /** spread rotates the other nodes, so that a dead node's clients do not all move to the same survivor. */
  constructor(first: string, spread = Math.floor(Math.random() * 1024)) {
    this.urls = [first];
    this.spread = spread;
  }

  /** The socket URL to use now. */
  current(): string {
    return this.urls[this.at]!;
  }

  /** Moves to the next node (after a failed attempt or a drop) and returns it. */
  next(): string {
    this.at = (this.at + 1) % this.urls.length;
    return this.current();
  }

  /** All the socket URLs, in order. */
  all(): readonly string[] {
    return this.urls;
  }

  /**
   * Takes the login reply's `nodes` (base URLs): the list becomes the node in use, then the others (rotated by
   * the spread). Anything that is not a list of http(s) URLs, or a list of no other node, leaves it as it is.
   */
  learn(bases: unknown, path = '/ds/ws'): void {
    if (!Array.isArray(bases)) return;
    const cur = this.current();
    const others: string[] = [];
    for (const b of bases) {
      const u = typeof b === 'string' ? wsUrlOf(b, path) : undefined;
      if (u && u !== cur && !others.includes(u)) others.push(u);
    }
    if (others.length === 0) return;
    const k = this.spread % others.length;
    this.urls = [cur, ...others.slice(k), ...others.slice(0, k)];
    this.at = 0;
  }
}
