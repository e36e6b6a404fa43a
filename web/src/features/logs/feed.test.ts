// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { setFetch } from '../../shared/http/client';
import { livePatches } from '../../shared/socket/useLiveQueries';
import { logKeys, type LogEntry } from './api';
import { LOG_EVENTS, logFeedQuery } from './feed';

const e = (id: number): LogEntry => ({ id: String(id), date: id * 1000, name: 'n', account: 'a', type: 5, remark: `r${id}` });
const ids = (rows: LogEntry[] | undefined) => rows?.map((x) => x.id);

/** The feed after log.added of entry, from rows. */
function added(rows: LogEntry[] | undefined, entry: LogEntry): LogEntry[] | undefined {
  const patches = livePatches(LOG_EVENTS, 'log.added', entry);
  expect(patches.map((p) => p.queryKey)).toEqual([logKeys.feed()]);
  return patches[0]!.update(rows) as LogEntry[] | undefined;
}

describe('the live log panel, a feed in the query cache', () => {
  afterEach(() => setFetch((...a) => fetch(...a)));

  it('log.added puts its entry in by time and id — none before the first answer lost — capped at 300 → 150', () => {
    expect(ids(added([e(3), e(1)], e(2)))).toEqual(['3', '2', '1']);
    expect(ids(added([e(3), e(1)], e(3)))).toEqual(['3', '1']); // an event heard twice is one row
    expect(ids(added(undefined, e(7)))).toEqual(['7']);
    const full = Array.from({ length: 300 }, (_, i) => e(300 - i));
    expect(ids(added(full, e(301)))).toEqual(['301', ...full.slice(0, 149).map((x) => x.id)]);
    expect(livePatches(LOG_EVENTS, 'log.removed', e(1))).toEqual([]);
  });

  it('asks for the newest 300 and merges them into the rows the feed holds (an event that came first stays)', async () => {
    const asked: string[] = [];
    setFetch(async (input) => {
      asked.push(String(input));
      return new Response(JSON.stringify({ code: '0', result: { total: 2, list: [e(5), e(4)] } }), { headers: { 'Content-Type': 'application/json' } });
    });
    const qc = new QueryClient();
    qc.setQueryData(logKeys.feed(), [e(6)]);
    expect(ids(await qc.fetchQuery(logFeedQuery))).toEqual(['6', '5', '4']);
    expect(asked).toEqual(['/ds/log/list?pageNo=1&pageSize=300']);
  });
});
