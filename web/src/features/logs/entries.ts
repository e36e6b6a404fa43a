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

/** Who wrote an entry, as a line of the live panel starts: name (account) — or nothing when the text names them
 * already. A terminal acting on itself (accepting a job ticket, switching its own group) is its detail's
 * `terminal`, which the text shows as name (id); prefixing the actor as well read "App 143 (10000143) App 143
 * (10000143) accepted…" (issue 32 item 6). */
export function actorOf(e: LogEntry): string {
  if (e.detail?.params?.terminal === e.account) return '';
  return e.account ? `${e.name} (${e.account})` : e.name;
}

/** How the text resolves ids: group and terminal names from the directory store (undefined when unknown), and
 * instants (ms) as date and time. */
export interface Names {
  group: (gid: string) => string | undefined;
  terminal: (cid: string) => string | undefined;
  time: (ms: number) => string;
}

const GROUP_PARAMS = new Set(['group', 'from']);
const TIME_PARAMS = new Set(['start', 'end']);
const CALL_KIND_PARAMS = new Set(['callKind', 'prevKind']);
/** Parameters the console appends to any template: a message's attachment. */
const ATTACHMENT_PARAMS = new Set(['file', 'fileKind']);

function terminalName(cid: string, names: Names): string {
  const n = names.terminal(cid);
  return n ? `${n} (${cid})` : cid;
}

/** One parameter as the viewer reads it (docs/api.md "Operation log" lists the names with a meaning). */
function paramText(k: string, v: string, t: TFunction, names: Names): string {
  if (GROUP_PARAMS.has(k)) return !v || v === '0' ? t('logs:noGroup') : (names.group(v) ?? `#${v}`);
  if (k === 'terminal') return terminalName(v, names);
  if (k === 'terminals') return v ? v.split(',').map((c) => terminalName(c, names)).join(', ') : t('logs:none');
  if (TIME_PARAMS.has(k)) return Number(v) ? names.time(Number(v)) : t('logs:none');
  if (k === 'kind') return t(`logs:kind.${v}`, { defaultValue: v });
  if (CALL_KIND_PARAMS.has(k)) return t(`logs:callKind.${v}`, { defaultValue: v });
  if (k === 'status') return t(`logs:callSet.${v}`, { defaultValue: v });
  if (k === 'event') return t(`logs:fenceEvent.${v}`, { defaultValue: v });
  return v === '' ? t('logs:none') : v;
}

/** The remark in the viewer's language; an entry without a detail (older rows) shows its stored remark. */
export function detailText(e: LogEntry, t: TFunction, names: Names): string {
  const d = e.detail;
  if (!d?.key) return e.remark;
  const params = d.params ?? {};
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (!ATTACHMENT_PARAMS.has(k)) values[k] = paramText(k, v, t, names);
  }
  const text = t(`logs:detail.${d.key}`, { ...values, defaultValue: e.remark });
  if (!params.file || text === e.remark) return text;
  const kind = t(`logs:fileKind.${params.fileKind ?? ''}`, { defaultValue: params.fileKind ?? '' });
  return `${text} ${t('logs:attachment', { kind, file: params.file })}`;
}
