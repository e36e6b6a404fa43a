// Positions from the binary snapshot GET /static/gps/gps_{x}.bin (docs/geo.md "Binary snapshot") instead of
// getLastGps: while the socket is down the map polls it, and an unchanged snapshot costs a 304 (ETag), so the
// terminals keep moving without the live feed and without re-reading the whole directory.
import { enqueue, useDirectory, type DirectoryEvent } from '../../shared/directory/store';
import type { Terminal } from '../../shared/directory/model';
import { parseGpsBin, type SnapshotRecord } from './gpsbin';

/** The terminal.status events that move known terminals to fixes newer than the ones they show. */
export function newerPositions(records: SnapshotRecord[], terminals: Record<string, Terminal>): DirectoryEvent[] {
  const out: DirectoryEvent[] = [];
  for (const r of records) {
    const t = terminals[r.msId];
    if (!t || (t.lastGps ?? 0) >= r.time) continue;
    out.push({
      type: 'terminal.status',
      data: { msId: r.msId, lat: r.lat, lng: r.lng, speed: r.speed, time: r.time, ...(r.battery >= 0 ? { battery: r.battery } : {}), ...(r.signal >= 0 ? { signal: r.signal } : {}) },
    });
  }
  return out;
}

let etag = '';

/** Fetches the snapshot of customer x (the token cookie opens it) and applies what is newer; returns how many
 * terminals moved (0 on 304). */
export async function refreshPositions(customerId: number, fetchImpl: typeof fetch = fetch): Promise<number> {
  if (!customerId) return 0;
  const res = await fetchImpl(`/static/gps/gps_${customerId}.bin`, { credentials: 'same-origin', headers: etag ? { 'If-None-Match': etag } : {} });
  if (res.status === 304 || !res.ok) return 0;
  etag = res.headers.get('ETag') ?? '';
  const events = newerPositions(parseGpsBin(await res.arrayBuffer()).records, useDirectory.getState().terminals);
  events.forEach(enqueue);
  return events.length;
}
