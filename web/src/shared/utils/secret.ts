// Remember-password storage. The password is never stored in plain text: it is encrypted with AES-GCM under a
// random 256-bit key that WebCrypto generates as *non-extractable* and that lives only in IndexedDB (a CryptoKey is
// structured-cloneable, its raw bytes cannot be read by script). localStorage holds only {iv, ciphertext}.
// Clearing site data, or a browser without IndexedDB/WebCrypto, simply forgets the password.

const DB = 'tenfour-secrets';
const STORE = 'keys';
const KEY_ID = 'remember-v1';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function idb<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  return openDb().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = fn(tx.objectStore(STORE));
        req.onsuccess = () => resolve(req.result as T);
        req.onerror = () => reject(req.error);
      }),
  );
}

async function key(create: boolean): Promise<CryptoKey | undefined> {
  if (typeof indexedDB === 'undefined' || !globalThis.crypto?.subtle) return undefined;
  const existing = await idb<CryptoKey | undefined>('readonly', (s) => s.get(KEY_ID));
  if (existing || !create) return existing;
  const k = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await idb('readwrite', (s) => s.put(k, KEY_ID));
  return k;
}

const b64 = (b: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(b)));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export interface Sealed {
  iv: string;
  ct: string;
}

export async function seal(plain: string): Promise<Sealed | undefined> {
  try {
    const k = await key(true);
    if (!k) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, k, new TextEncoder().encode(plain));
    return { iv: b64(iv), ct: b64(ct) };
  } catch {
    return undefined;
  }
}

export async function unseal(s: Sealed | undefined): Promise<string | undefined> {
  if (!s) return undefined;
  try {
    const k = await key(false);
    if (!k) return undefined;
    const pt = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: unb64(s.iv) }, k, unb64(s.ct));
    return new TextDecoder().decode(pt);
  } catch {
    return undefined;
  }
}
