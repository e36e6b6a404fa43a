// Spec §4: "Page reloads once with a version query parameter unless an auto-login key is in the address, there is
// an opener window, or the version is already present."
export const VERSION_PARAM = 'v';

export interface ReloadInput {
  search: string;
  hasOpener: boolean;
  autoLoginKeys: readonly string[];
  version: string | undefined;
}

export function shouldReloadWithVersion({ search, hasOpener, autoLoginKeys, version }: ReloadInput): boolean {
  if (!version) return false;
  const q = new URLSearchParams(search);
  if (hasOpener) return false;
  if (autoLoginKeys.some((k) => q.has(k))) return false;
  if (q.has(VERSION_PARAM)) return false;
  return true;
}

export function withVersion(path: string, version: string): string {
  const [p, q = ''] = path.split('?');
  const params = new URLSearchParams(q);
  params.set(VERSION_PARAM, version);
  return `${p}?${params.toString()}`;
}
