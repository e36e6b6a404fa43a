// The session token cookie (spec §9: expires after 1 day).
export const TOKEN_COOKIE = 'token';
const DAY_S = 24 * 60 * 60;

export function getCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export function setTokenCookie(token: string): void {
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${DAY_S}; Path=/; SameSite=Lax`;
}

export function deleteTokenCookie(): void {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

export function getTokenCookie(): string | undefined {
  const t = getCookie(TOKEN_COOKIE);
  return t ? t : undefined;
}
