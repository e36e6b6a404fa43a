// Secret keys (docs/api.md "Secret keys", ADR 0021): the customer's key ring of voice-encryption keys for its radio
// side; the current key is what terminals receive (key.changed) and what userInfo.secretKey carries.
import { http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type { LiveKeys } from '../../shared/socket/useLiveQueries';

export interface SecretKey {
  id: string;
  name: string;
  secretKey: string;
  current: boolean;
  createBy: string;
  createTime: number;
  updateTime: number;
  /** When the key last became the current one (0: never). */
  rotateTime: number;
}

export interface KeyInput {
  name: string;
  secretKey: string;
  current?: boolean;
}

export const KEY_PATHS = {
  add: '/ds/key/add',
  list: '/ds/key/list',
  update: '/ds/key/update',
  remove: '/ds/key/delete',
} as const;

/** The socket event of a key ring change: the current key after it. */
export const KEY_CHANGED = 'key.changed';

export function normaliseKey(k: SecretKey): SecretKey {
  return { ...k, id: String(k.id), current: k.current === true || String(k.current) === 'true' || String(k.current) === '1' };
}

export const secretKeyApi = {
  list: async () => {
    const p = await http.get<Page<SecretKey>>(KEY_PATHS.list);
    return { total: p.total, list: p.list.map(normaliseKey) };
  },
  add: (k: KeyInput) => http.post<SecretKey>(KEY_PATHS.add, k).then(normaliseKey),
  update: (id: string, change: Partial<KeyInput>) => http.put<SecretKey>(KEY_PATHS.update, { id, ...change }).then(normaliseKey),
  remove: (id: string) => http.del<{ id: string }>(KEY_PATHS.remove, { id }),
};

export const secretKeyKeys = queryKeys('secretkeys', ['list']);

/** Another dispatcher's change (or this one's, echoed) refreshes the list. */
export const KEY_EVENTS: Record<string, LiveKeys> = { [KEY_CHANGED]: [secretKeyKeys.list.all] };
