// The account this device signs in with: the id always, the password only sealed (shared/utils/secret.ts) and only
// when "remember" was ticked.
import { seal, unseal, type Sealed } from '../../shared/utils/secret';
import { local, readJSON, removeKey, writeJSON } from '../../shared/utils/storage';

const ACCOUNT_KEY = 'tenfour.app.account';

type Stored = { uid: string; secret?: Sealed };

/** The stored account: the id always, the password when it could be kept sealed. */
export async function storedAccount(): Promise<{ uid: string; password?: string } | undefined> {
  const a = readJSON<Stored>(local(), ACCOUNT_KEY);
  if (!a?.uid) return undefined;
  return { uid: a.uid, password: a.secret ? await unseal(a.secret) : undefined };
}

/** After a successful sign-in: the id, and the password sealed when it is to be remembered and can be. */
export async function keepAccount(uid: string, password: string, remember: boolean): Promise<void> {
  const secret = remember ? await seal(password) : undefined;
  writeJSON(local(), ACCOUNT_KEY, secret ? { uid, secret } : { uid });
}

/** Sign-out: the id stays to fill the form, the password goes. */
export function forgetPassword(): void {
  const a = readJSON<Stored>(local(), ACCOUNT_KEY);
  if (a?.uid) writeJSON(local(), ACCOUNT_KEY, { uid: a.uid });
  else removeKey(local(), ACCOUNT_KEY);
}

/** The account was refused (wrong password, disabled…): nothing is kept. */
export function forgetAccount(): void {
  removeKey(local(), ACCOUNT_KEY);
}
