// The export of a paged report: every page of the search, read one after another.
import type { Page } from '../http/createClient';

/** Reads pages of pageSize until total rows are in or a page comes back short; the first answer is returned as well
 * (a report may answer more than its list: a summary). onPage reports progress as (rows read, total). */
export async function fetchAllPages<A extends Page<unknown>>(
  fetchPage: (pageNo: number, pageSize: number) => Promise<A>,
  pageSize = 1000,
  onPage?: (loaded: number, total: number) => void,
): Promise<{ first: A; list: A['list'] }> {
  const first = await fetchPage(1, pageSize);
  const list = [...(first.list ?? [])];
  onPage?.(list.length, first.total);
  let last = list.length;
  for (let pageNo = 2; list.length < first.total && last === pageSize; pageNo++) {
    const next = await fetchPage(pageNo, pageSize);
    last = next.list?.length ?? 0;
    list.push(...(next.list ?? []));
    onPage?.(list.length, first.total);
  }
  return { first, list };
}
