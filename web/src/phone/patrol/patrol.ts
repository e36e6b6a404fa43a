// Patrol (docs/terminal-protocol.md "Patrol"): this terminal's orders (patrol.orders) and its punches
// (patrol.punch) — a tag value read by Web NFC, the text of the point's QR code scanned by the camera (or typed
// from under it), or "I am here" at the newest position. One store; the sheet reads it.
import { create } from 'zustand';
import type { Order, OrderLog, PunchResult } from '../../shared/wire/patrol';
import { useLocation, type Fix } from '../location/location';
import { phoneSocket } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export type PunchMethod = 'nfc' | 'qr' | 'gps';

// The server's shapes, generated from internal/patrol/model.go (make wire); a punch's log is an OrderLog.
export type { Order, OrderPoint } from '../../shared/wire/patrol';
export type PunchLog = OrderLog;

export interface PatrolState {
  orders: Order[];
  /** The server's clock minus this device's (ms), from the last patrol.orders. */
  offset: number;
  loading: boolean;
  /** The last punch's log (shown under the buttons). */
  last?: PunchLog;
}

export const usePatrol = create<PatrolState>(() => ({ orders: [], offset: 0, loading: false }));

export function resetPatrol(): void {
  usePatrol.setState({ orders: [], offset: 0, loading: false, last: undefined }, true);
}

/** Orders open for punches at server time `now`: begun, late grace not over, still waiting. */
export function openOrders(orders: Order[], now: number): Order[] {
  return orders.filter((o) => o.state === 0 && o.startTime <= now && now < o.judgeTime);
}

/** Orders still to come at server time `now`. */
export function upcomingOrders(orders: Order[], now: number): Order[] {
  return orders.filter((o) => o.state === 0 && o.startTime > now);
}

/** The list with one order replaced by a newer copy (a punch's answer), keeping its points when it has none. */
export function mergeOrder(orders: Order[], o: Order): Order[] {
  return orders.map((x) => (x.orderId === o.orderId ? { ...x, ...o, points: o.points ?? x.points } : x));
}

/** The tag value of an NFC read: its first text (or URL) record, else the tag's serial number. */
export function tagValue(message: { records: ReadonlyArray<{ recordType: string; data?: DataView | null; encoding?: string }> }, serial: string): string {
  for (const r of message.records) {
    if ((r.recordType === 'text' || r.recordType === 'url') && r.data) {
      const text = new TextDecoder(r.encoding || 'utf-8').decode(r.data).trim();
      if (text) return text;
    }
  }
  return serial.trim();
}

export async function loadOrders(): Promise<void> {
  const sock = phoneSocket();
  if (!sock) return;
  usePatrol.setState({ loading: true });
  try {
    const r = await sock.request<{ serverTime: number; list: Order[] }>('patrol.orders', {});
    usePatrol.setState({ orders: r.list ?? [], offset: (r.serverTime || Date.now()) - Date.now(), loading: false });
  } catch (e) {
    usePatrol.setState({ loading: false });
    notify('errors.generic', { code: codeOf(e) });
  }
}

/** Sends a punch; the answer updates its order. Resolves to the log, or undefined when refused (told to the user). */
export async function punch(method: PunchMethod, extra: { value?: string; fix?: Fix }): Promise<PunchLog | undefined> {
  const sock = phoneSocket();
  if (!sock) return undefined;
  const data: Record<string, unknown> = { method };
  if (extra.value !== undefined) data.value = extra.value;
  if (extra.fix) {
    data.lat = extra.fix.lat;
    data.lng = extra.fix.lng;
  }
  try {
    const r = await sock.request<PunchResult>('patrol.punch', data);
    usePatrol.setState((s) => ({ last: r.log, orders: r.order ? mergeOrder(s.orders, r.order) : s.orders }));
    notify(`patrol.result.${r.log.state}`, { point: r.log.pointName });
    navigator.vibrate?.(80);
    return r.log;
  } catch (e) {
    const code = codeOf(e);
    notify(code === '1030' || code === '1031' ? `patrol.errors.${code}` : 'errors.generic', { code });
    return undefined;
  }
}

/** "I am here": a position asked of the browser now (the reported one may be half a minute old), else the newest the app has. */
export async function punchHere(): Promise<PunchLog | undefined> {
  const fix = (await currentFix()) ?? useLocation.getState().last;
  if (!fix) {
    notify('patrol.errors.noFix');
    return undefined;
  }
  return punch('gps', { fix });
}

function currentFix(): Promise<Fix | undefined> {
  if (!('geolocation' in navigator)) return Promise.resolve(undefined);
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude, time: p.timestamp }),
      () => resolve(undefined),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 5_000 },
    ),
  );
}

/** A new order of this terminal was generated: read the orders again. */
export function attachPatrol(s: TerminalSocket): void {
  s.on('patrol.assigned', () => void loadOrders());
}
