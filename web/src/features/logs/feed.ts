// The live operation-log panel's rows (spec §5), kept in the query cache: the newest 300 from the server, then
// each log.added put in by its id. log.added fires at every terminal online/offline and call, so the feed is
// patched from the event (useLiveQueries' patch mode) rather than refetched: a refetch per event would ask for 300
// rows from every console each time. The socket coming (back) online refetches it.
import { queryOptions } from '@tanstack/react-query';
import type { LiveEntry } from '../../shared/socket/useLiveQueries';
import { LOG_CAP, logApi, logKeys, type LogEntry } from './api';
import { mergeEntries } from './entries';

const FEED = { pageNo: 1, pageSize: LOG_CAP };

/** The feed: the server's newest rows merged into the rows it already holds — so an answer that was on its way
 * while an event arrived does not drop that event, and a refetch keeps what the panel showed (capped, spec §5). */
export const logFeedQuery = queryOptions({
  queryKey: logKeys.feed(),
  queryFn: async ({ client, queryKey }) => mergeEntries(client.getQueryData<LogEntry[]>(queryKey) ?? [], (await logApi.list(FEED)).list ?? []),
});

/** log.added puts its entry into the feed (newest first by time and id, capped); the resync root is the feed. */
export const LOG_EVENTS: Record<string, LiveEntry> = {
  'log.added': { patch: (e: LogEntry) => [{ queryKey: logKeys.feed(), update: (rows?: LogEntry[]) => mergeEntries(rows ?? [], [e]) }] },
};
