// The position reports of a signed-in phone: watches the Geolocation API while the user wants it, sends the first
// fix at once and then the newest fix every interval; offline, fixes are kept (at most 500) and sent as one batch
// after the next login. One reporter per session (session/link.ts).
import type { ReportSocket } from '../socket';
import { useLocation, type Fix } from './location';

const MAX_BUFFER = 500;

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A Geolocation position as a fix: speed and heading only when the device knows them. */
export function toFix(p: GeolocationPosition, now = Date.now()): Fix {
  const c = p.coords;
  return {
    lat: c.latitude,
    lng: c.longitude,
    time: p.timestamp || now,
    ...(c.speed != null && c.speed >= 0 ? { speed: c.speed } : {}),
    ...(c.heading != null && c.heading >= 0 ? { direction: c.heading } : {}),
    ...(c.altitude != null ? { altitude: c.altitude } : {}),
  };
}

/** The report of a fix: six decimals, never a time in the future. */
export function toPoint(fix: Fix, now = Date.now()): Fix {
  return { ...fix, lat: round6(fix.lat), lng: round6(fix.lng), time: Math.min(fix.time, now) };
}

export class LocationReporter {
  private watchId?: number;
  private timer?: ReturnType<typeof setInterval>;
  private buffer: Fix[] = [];
  private unfollow?: () => void;
  private readonly sock: ReportSocket;
  private readonly geo: Geolocation | undefined;

  constructor(sock: ReportSocket, geo: Geolocation | undefined = navigator.geolocation) {
    this.sock = sock;
    this.geo = geo;
  }

  /** Starts watching (when wanted) and follows the menu's switch and the server's interval until stop(). */
  start(): void {
    this.unfollow?.();
    this.unfollow = useLocation.subscribe((s, prev) => {
      if (s.wanted !== prev.wanted) {
        if (s.wanted) this.watch();
        else this.unwatch();
      } else if (s.intervalS !== prev.intervalS) this.schedule();
    });
    this.watch();
  }

  stop(): void {
    this.unfollow?.();
    this.unfollow = undefined;
    this.unwatch();
    this.buffer = [];
  }

  /** The fixes kept while offline, oldest first. */
  get pending(): readonly Fix[] {
    return this.buffer;
  }

  /** After a login: sends the fixes kept while offline as one batch. */
  flush(): void {
    if (!this.buffer.length) return;
    const points = this.buffer;
    this.buffer = [];
    this.sock.request('gps.report', { points }).catch(() => {
      this.buffer = [...points, ...this.buffer].slice(-MAX_BUFFER);
    });
  }

  private watch() {
    if (!useLocation.getState().wanted || this.watchId !== undefined) return;
    if (!this.geo) {
      useLocation.setState({ state: 'unsupported' });
      return;
    }
    useLocation.setState({ state: 'waiting' });
    this.watchId = this.geo.watchPosition(
      (p) => {
        const first = !useLocation.getState().last;
        useLocation.setState({ state: 'ok', last: toFix(p) });
        if (first) this.send(); // the dispatcher sees the position at once, then every interval
      },
      (err) => useLocation.setState({ state: err.code === err.PERMISSION_DENIED ? 'denied' : 'waiting' }),
      { enableHighAccuracy: true, maximumAge: 5_000, timeout: 60_000 },
    );
    this.schedule();
  }

  private unwatch() {
    if (this.watchId !== undefined) this.geo?.clearWatch(this.watchId);
    this.watchId = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    useLocation.setState({ state: 'off' });
  }

  private schedule() {
    clearInterval(this.timer);
    if (this.watchId === undefined) return;
    this.timer = setInterval(() => this.send(), useLocation.getState().intervalS * 1000);
  }

  /** Sends the newest fix (a position report per interval); offline, it is kept for the batch. */
  private send() {
    const fix = useLocation.getState().last;
    if (!fix) return;
    const point = toPoint(fix);
    if (this.sock.status !== 'online') {
      if (this.buffer[this.buffer.length - 1]?.time !== point.time) this.keep([point]);
      return;
    }
    this.sock.request('gps.report', point).then(
      () => useLocation.setState((s) => ({ sentAt: Date.now(), sent: s.sent + 1 })),
      () => this.keep([point]),
    );
  }

  private keep(points: Fix[]) {
    this.buffer = [...this.buffer, ...points].slice(-MAX_BUFFER);
  }
}
