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
