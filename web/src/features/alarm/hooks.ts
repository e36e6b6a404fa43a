import { useLocation } from 'react-router';

/** True in an extra-window copy of a screen (a "-child" route). */
export function useIsChild(): boolean {
  return useLocation().pathname.includes('-child');
}

/** Where "show on the map" goes (map contract: /monitoring?focus=<msId>&sos=<alarmId>&lat=&lng=). */
export function mapLink(child: boolean, msId: string, extra: { sos?: string; lat?: number | null; lng?: number | null } = {}): string {
  const q = new URLSearchParams({ focus: msId });
  if (extra.sos) q.set('sos', extra.sos);
  if (typeof extra.lat === 'number' && typeof extra.lng === 'number') {
    q.set('lat', String(extra.lat));
    q.set('lng', String(extra.lng));
  }
  return `${child ? '/monitoring-child' : '/monitoring'}?${q.toString()}`;
}

export function positionText(lat: number | null | undefined, lng: number | null | undefined): string {
  return typeof lat === 'number' && typeof lng === 'number' ? `${lat.toFixed(5)}, ${lng.toFixed(5)}` : '—';
}

/**
 * When the alarm's position was fixed. The alarm record has no fix time: a terminal that sends its position with the
 * SOS gives a fresh one (the alarm's own time), one that sends none (location denied) gets its last known position,
 * which is the directory's — then the directory's last fix time is that position's, however old.
 */
export function sosFixTime(a: { time: number; lat: number | null; lng: number | null }, term?: { lat?: number; lng?: number; lastGps?: number }): number {
  const same = (x?: number | null, y?: number | null) => typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) < 1e-6;
  if (term?.lastGps && same(a.lat, term.lat) && same(a.lng, term.lng)) return Math.min(term.lastGps, a.time);
  return a.time;
}
