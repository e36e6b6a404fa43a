// Keeping a loaded page of alarm history current with the live events, without searching again (every search
// writes operation log 116).
import { normaliseAlarm, sosKeys, type SosAlarm, type SosQuery } from '../../shared/alarms/sos';
import type { Page } from '../../shared/http/createClient';
import type { LiveEntry, LivePatch } from '../../shared/socket/useLiveQueries';

export function matchesQuery(a: SosAlarm, q: SosQuery): boolean {
  if (a.time < q.sTime || a.time > q.eTime) return false;
  if (q.msIds && !q.msIds.split(',').includes(a.msId)) return false;
  if (q.state && !q.state.split(',').map(Number).includes(a.state)) return false;
  if (q.type && a.type !== q.type) return false;
  return true;
}

/**
 * The page after an event: a listed alarm is replaced (and dropped when it no longer matches a state filter);
 * a new matching alarm is put first on page 1.
 */
export function patchPage(page: { total: number; list: SosAlarm[] }, a: SosAlarm, q: SosQuery): { total: number; list: SosAlarm[] } {
  const i = page.list.findIndex((x) => x.id === a.id);
  if (i >= 0) {
    if (page.list[i]!.state > a.state) return page; // an older copy
    if (!matchesQuery(a, q)) return { total: Math.max(0, page.total - 1), list: page.list.filter((x) => x.id !== a.id) };
    const list = page.list.slice();
    list[i] = a;
    return { ...page, list };
  }
  if (!matchesQuery(a, q) || (q.pageNo ?? 1) !== 1) return page;
  const list = [a, ...page.list].sort((x, y) => y.time - x.time);
  return { total: page.total + 1, list: list.slice(0, q.pageSize ?? list.length) };
}

/**
 * The live events of a history page that shows query (useLiveQueries' patch mode): sos.alarm and sos.updated
 * patch the shown page's cached rows (patchPage) — never a search per event, which would write an "alarm search"
 * log entry for every open console at each event.
 */
export function historyEvents(query: SosQuery): Record<string, LiveEntry> {
  const patch = (raw: SosAlarm): LivePatch[] => {
    const a = normaliseAlarm(raw);
    return [{ queryKey: sosKeys.find(query), update: (page?: Page<SosAlarm>) => page && patchPage(page, a, query) }];
  };
  return { 'sos.alarm': { patch }, 'sos.updated': { patch } };
}

/** Response delay in ms (0 when nobody responded). */
export function responseDelay(a: SosAlarm): number {
  return a.responseTime && a.time ? Math.max(0, a.responseTime - a.time) : 0;
}
