// Secret keys (docs/api.md "Secret keys", ADR 0021): the customer's key ring of voice-encryption keys for its radio
// side; the current key is what terminals receive (key.changed) and what userInfo.secretKey carries.
import { http } from '../../shared/http/client';

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

export interface KeyPage {
  total: number;
  list: SecretKey[];
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
    const p = await http.get<KeyPage>(KEY_PATHS.list);
    return { total: p.total, list: p.list.map(normaliseKey) };
  },
  add: (k: KeyInput) => http.post<SecretKey>(KEY_PATHS.add, k).then(normaliseKey),
  update: (id: string, change: Partial<KeyInput>) => http.put<SecretKey>(KEY_PATHS.update, { id, ...change }).then(normaliseKey),
  remove: (id: string) => http.del<{ id: string }>(KEY_PATHS.remove, { id }),
};

export const secretKeyKeys = {
  all: ['secretkeys'] as const,
  list: () => [...secretKeyKeys.all, 'list'] as const,
};
