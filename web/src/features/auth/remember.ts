// Remembered credentials. Nothing is kept in plain text: see shared/utils/secret.ts and web/README.md.
import { seal, unseal, type Sealed } from '../../shared/utils/secret';
import { local, readJSON, removeKey, writeJSON } from '../../shared/utils/storage';

const REMEMBER_KEY = 'tenfour.remember';
const REAUTH_KEY = 'tenfour.reauth';

interface Stored {
  account: string;
  secret: Sealed;
}

async function put(key: string, account: string, password: string) {
  const secret = await seal(password);
  if (secret) writeJSON(local(), key, { account, secret } satisfies Stored);
  else removeKey(local(), key);
}

async function get(key: string): Promise<{ account: string; password: string } | undefined> {
  const s = readJSON<Stored>(local(), key);
  if (!s) return undefined;
  const password = await unseal(s.secret);
  return password === undefined ? undefined : { account: s.account, password };
}

/** The sign-in form's "remember password". */
export const remembered = {
  save: (account: string, password: string) => put(REMEMBER_KEY, account, password),
  load: () => get(REMEMBER_KEY),
  forget: () => removeKey(local(), REMEMBER_KEY),
};

/** The account used to re-authenticate when a data call answers "105" (cleared on sign-out). */
export const reauthAccount = {
  save: (account: string, password: string) => put(REAUTH_KEY, account, password),
  load: () => get(REAUTH_KEY),
  forget: () => removeKey(local(), REAUTH_KEY),
};
