// The media cloud (docs/messages.md §6): POST /ds/mediaLib/list and the live media.added event.
import { http } from '../../shared/http/client';

export const MEDIA_PATHS = { list: '/ds/mediaLib/list' } as const;

export type MediaKind = 'image' | 'video' | 'audio';

export interface MediaItem {
  id: string;
  msId: string;
  msName?: string;
  fileId: string;
  kind: MediaKind;
  mime?: string;
  name?: string;
  size?: number;
  url: string;
  lat?: number;
  lng?: number;
  /** When it was taken (UTC ms). */
  time: number;
  createTime?: number;
}

export interface MediaQuery {
  msIds?: string[];
  sTime: number;
  eTime: number;
  kind?: MediaKind;
  pageNo: number;
  pageSize: number;
}

export const mediaApi = {
  list: (q: MediaQuery) =>
    http.post<{ total: number; list: MediaItem[] }>(MEDIA_PATHS.list, {
      ...(q.msIds?.length ? { msIds: q.msIds } : {}),
      sTime: q.sTime,
      eTime: q.eTime,
      ...(q.kind ? { kind: q.kind } : {}),
      pageNo: q.pageNo,
      pageSize: q.pageSize,
    }),
};

/** Spec §9 "files limit 100": a gallery page holds at most 100 items. */
export const MEDIA_PAGE_SIZE = 100;

/** Whether a live item belongs on the page the dispatcher is looking at. */
export function matchesQuery(item: MediaItem, q: Pick<MediaQuery, 'msIds' | 'kind' | 'sTime' | 'eTime'>, open: boolean): boolean {
  if (q.msIds?.length && !q.msIds.includes(String(item.msId))) return false;
  if (q.kind && item.kind !== q.kind) return false;
  return item.time >= q.sTime && (open || item.time <= q.eTime);
}

/** Adds live items in front (newest first), without repeats. */
export function mergeLive(list: MediaItem[], added: MediaItem[]): MediaItem[] {
  const seen = new Set(list.map((x) => String(x.id)));
  const fresh = added.filter((x) => !seen.has(String(x.id)));
  return [...fresh, ...list].sort((a, b) => b.time - a.time || Number(b.id) - Number(a.id));
}
