// The battery level (status.report): at login, on every change and every status interval (param.set
// statusInterval, 600 s until the server says otherwise), where the browser tells it (Battery Status API).
import type { ReportSocket } from '../socket';

export interface BatteryLike {
  level: number;
  addEventListener: (t: 'levelchange', fn: () => void) => void;
  removeEventListener?: (t: 'levelchange', fn: () => void) => void;
}

const DEFAULT_STATUS_INTERVAL_S = 600;

const browserBattery = (): Promise<BatteryLike | undefined> | undefined =>
  (navigator as Navigator & { getBattery?: () => Promise<BatteryLike> }).getBattery?.();

export class BatteryReporter {
  private battery?: BatteryLike;
  private timer?: ReturnType<typeof setInterval>;
  private stopped = false;
  private readonly sock: ReportSocket;
  private readonly getBattery: () => Promise<BatteryLike | undefined> | undefined;

  constructor(sock: ReportSocket, getBattery = browserBattery) {
    this.sock = sock;
    this.getBattery = getBattery;
  }

  async start(): Promise<void> {
    try {
      this.battery = await this.getBattery();
    } catch {
      this.battery = undefined;
    }
    if (!this.battery || this.stopped) return;
    this.battery.addEventListener('levelchange', this.send);
    this.send();
    this.schedule(DEFAULT_STATUS_INTERVAL_S);
  }

  /** The server's status interval; until the battery is known there is nothing to report. */
  schedule(seconds: number): void {
    clearInterval(this.timer);
    if (this.battery && !this.stopped) this.timer = setInterval(this.send, seconds * 1000);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.battery?.removeEventListener?.('levelchange', this.send);
  }

  private readonly send = () => {
    if (!this.battery || this.stopped || this.sock.status !== 'online') return;
    this.sock.request('status.report', { battery: Math.round(this.battery.level * 100) }).catch(() => {});
  };
}
