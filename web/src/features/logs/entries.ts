// Operation-log entries in the console: one order (newest first by time, then id) for stored and live rows, and
// the text of an entry's remark in the viewer's language from its detail (docs/api.md "Operation log").
import type { TFunction } from 'i18next';
import { capLog, type LogEntry } from './api';

const time = (e: LogEntry) => (typeof e.date === 'number' ? e.date : Date.parse(e.date) || Number(e.date) || 0);
const idNum = (e: LogEntry) => Number(e.id) || 0;

/** Newest first: by time, then by id (rows of the same millisecond in the order they were written). */
export function newestFirst(a: LogEntry, b: LogEntry): number {
  return time(b) - time(a) || idNum(b) - idNum(a);
}

/** The union of shown and arriving entries (an id once), newest first, capped (spec §5). */
export function mergeEntries(shown: LogEntry[], arriving: LogEntry[]): LogEntry[] {
  const byId = new Map(shown.map((e) => [e.id, e]));
  for (const e of arriving) byId.set(e.id, e);
  return capLog([...byId.values()].sort(newestFirst));
}

/** How the text resolves ids: group and terminal names from the directory store (undefined when unknown). */
export interface Names {
  group: (gid: string) => string | undefined;
  terminal: (cid: string) => string | undefined;
}

const GROUP_PARAMS = new Set(['group', 'from']);

/** The remark in the viewer's language; an entry without a detail (older rows) shows its stored remark. */
export function detailText(e: LogEntry, t: TFunction, names: Names): string {
  const d = e.detail;
  if (!d?.key) return e.remark;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.params ?? {})) {
    if (GROUP_PARAMS.has(k)) values[k] = !v || v === '0' ? t('logs:noGroup') : (names.group(v) ?? `#${v}`);
    else if (k === 'terminal') values[k] = names.terminal(v) ? `${names.terminal(v)} (${v})` : v;
    else if (k === 'kind') values[k] = t(`logs:kind.${v}`, { defaultValue: v });
    else if (k === 'status') values[k] = t(`logs:callSet.${v}`, { defaultValue: v });
    else values[k] = v;
  }
  return t(`logs:detail.${d.key}`, { ...values, defaultValue: e.remark });
}
