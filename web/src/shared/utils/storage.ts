// Small typed wrappers over Web Storage that never throw (private mode, quota, tests).
export function readJSON<T>(store: Storage | undefined, key: string): T | undefined {
  try {
    const raw = store?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function writeJSON(store: Storage | undefined, key: string, value: unknown): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or unavailable: the value just is not kept */
  }
}

export function removeKey(store: Storage | undefined, key: string): void {
  try {
    store?.removeItem(key);
  } catch {
    /* ignore */
  }
}

export const local = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);
export const session = (): Storage | undefined => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
