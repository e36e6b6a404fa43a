// Spec §4: "Page reloads once with a version query parameter unless an auto-login key is in the address, there is
// an opener window, or the version is already present." The console keeps the rule's address, not its second page
// load (issue 32): the page that signed in already runs the deployed version (index.html is never cached and every
// asset is named by its content), so the sign-in moves inside the page to home with `?v=` — same URL, one load.
export const VERSION_PARAM = 'v';

export interface ReloadInput {
  search: string;
  hasOpener: boolean;
  autoLoginKeys: readonly string[];
  version: string | undefined;
}

/** Whether the address after sign-in carries the version (the spec's conditions for its reload). */
export function carriesVersion({ search, hasOpener, autoLoginKeys, version }: ReloadInput): boolean {
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

/** Where a sign-in lands: `path`, with the version when the rule asks for it. */
export function landingAfterSignIn(path: string, input: ReloadInput): string {
  return carriesVersion(input) ? withVersion(path, input.version!) : path;
}
