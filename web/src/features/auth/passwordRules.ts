// Spec §5: the original sign-in password is 6 digits; a new password is 8–64 characters with upper case, lower
// case, digits and a special character such as _#%@&*!.
export const NEW_PASSWORD_RE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[_#%@&*!]).{8,64}$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isStrongPassword(p: string): boolean {
  return NEW_PASSWORD_RE.test(p);
}

/** Password recovery codes (spec §8): 104 → noBindEmail, 101 → sendEmailException, 13 e-mail exists, 14 code error. */
export function recoveryErrorKey(code: string): string {
  switch (code) {
    case '104':
      return 'recovery.noBindEmail';
    case '101':
      return 'recovery.sendEmailException';
    case '13':
      return 'recovery.emailExists';
    case '14':
      return 'recovery.codeError';
    case '11':
      return 'pwd.sameAsOld';
    case '12':
      return 'pwd.rule';
    case '2':
      return 'pwd.oldWrong';
    case 'bind-2':
      return 'codes.2';
    default:
      return 'recovery.systemError';
  }
}

/** Auto-login links carry base64("account:password") under one of the host's auto-login keys. */
export function parseAutoLogin(search: string, keys: readonly string[]): { account: string; password: string } | undefined {
  const q = new URLSearchParams(search);
  for (const k of keys) {
    const v = q.get(k);
    if (!v) continue;
    try {
      const raw = atob(v.replace(/-/g, '+').replace(/_/g, '/'));
      const i = raw.indexOf(':');
      if (i > 0) return { account: raw.slice(0, i), password: raw.slice(i + 1) };
    } catch {
      /* not base64: ignore this key */
    }
  }
  return undefined;
}
