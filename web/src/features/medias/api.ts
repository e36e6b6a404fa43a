// The media cloud (docs/messages.md §6): POST /ds/mediaLib/list, DELETE /ds/mediaLib/delete and the live
// media.added / media.removed events.
import { http } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type { LiveKeys } from '../../shared/socket/useLiveQueries';

export const MEDIA_PATHS = { list: '/ds/mediaLib/list', remove: '/ds/mediaLib/delete' } as const;


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
  /** A camera snapshot taken in the console: its camera's stream id and name (msId/msName: who took it). */
  camera?: string;
  cameraName?: string;
}

/** What took an item: its camera for a camera snapshot, else its terminal (terminalName: the directory's). */
export function sourceOf(item: MediaItem, terminalName?: string): { camera: boolean; name: string; id: string } {
  if (item.camera) return { camera: true, name: item.cameraName || item.camera, id: item.camera };
  return { camera: false, name: terminalName || item.msName || item.msId, id: item.msId };
}

export interface MediaQuery {
  msIds?: string[];
  sTime: number;
  eTime: number;
  kind?: MediaKind;
  pageNo: number;
  pageSize: number;
}

/** mediaKeys.list(query, page): one gallery page. */
export const mediaKeys = queryKeys('medias', ['list']);

/** The media cloud's console events (docs/console-socket.md), both durable: an item uploaded or deleted makes the
 * gallery pages stale. */
export const MEDIA_EVENTS: Record<string, LiveKeys> = {
  'media.added': [mediaKeys.list.all],
  'media.removed': [mediaKeys.list.all],
};

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
  /** Deletes the item and its file; its space comes back in the customer's storage quota. */
  remove: (id: string) => http.del<{ id: string }>(MEDIA_PATHS.remove, { id }),
};

/** Spec §9 "files limit 100": a gallery page holds at most 100 items. */
export const MEDIA_PAGE_SIZE = 100;

/** The list without the items deleted here meanwhile (an answer fetched before the delete may still hold them). */
export function withoutRemoved(list: MediaItem[], removed: ReadonlySet<string>): MediaItem[] {
  return removed.size ? list.filter((x) => !removed.has(String(x.id))) : list;
}
