// Whether the provider's tiles can be reached, decided fast and remembered. An air-gapped control room never
// reaches them: waiting for tile requests to time out on every visit to the map is what it must not do. A quick
// probe (one tile, short timeout) or the first tile error decides; the answer is kept in localStorage, so the next
// visit starts on the offline basemap at once and probes again in the background now and then.
import type { Provider } from './gcj';
import { tileUrls } from './providers';

export const BASEMAP_KEY = 'tenfour.map.unreachable';
/** The probe gives up after this long (a dropped connection never answers). */
export const PROBE_TIMEOUT_MS = 3_000;
/** While offline, the provider is probed again this often. */
export const REPROBE_MS = 60_000;

type Memory = Partial<Record<Provider, number>>;

function read(): Memory {
  try {
    return (JSON.parse(localStorage.getItem(BASEMAP_KEY) ?? '{}') as Memory) ?? {};
  } catch {
    return {};
  }
}

/** When the provider was last found unreachable (ms), or undefined when it was not (or was reached since). */
export function unreachableSince(provider: Provider): number | undefined {
  const at = read()[provider];
  return typeof at === 'number' ? at : undefined;
}

/** Remembers the provider as unreachable (now) or reachable (forgets it). */
export function rememberReachable(provider: Provider, reachable: boolean, now = Date.now()): void {
  const m = read();
  if (reachable) delete m[provider];
  else m[provider] = now;
  try {
    localStorage.setItem(BASEMAP_KEY, JSON.stringify(m));
  } catch {
    /* private mode: decided again next time */
  }
}

/** The tile the probe asks for: the provider's world tile. */
export function probeUrl(provider: Provider, key: string | undefined, language: string): string | undefined {
  return tileUrls(provider, 'road', key, language)[0]?.replace('{z}', '0').replace('{x}', '0').replace('{y}', '0');
}

/**
 * Whether url answers within timeoutMs. An opaque answer counts: what matters is that the host is reached, not
 * what it says (the tiles' own errors are watched separately).
 */
export async function probe(url: string | undefined, timeoutMs = PROBE_TIMEOUT_MS, fetchFn: typeof fetch = fetch): Promise<boolean> {
  if (!url) return false;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    await fetchFn(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: ctl.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
