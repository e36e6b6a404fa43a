// The one way a failed call becomes a sentence (docs/adr/0033). In order:
//   1. the server's i18n key ("patrol.errors.1020" → patrol:errors.1020; "surveillance.errors.offline" → surveillance:errors.offline;
//      "errors.tokenTimeout" → common), when the console has it — a code alone is ambiguous across services (101 is
//      "busy" here, "offline" there);
//   2. the common namespace's codes.* — transport failures and the generic codes (400, 404, 101, 105, …), written
//      once in six languages;
//   3. the feature's own errors.<code> — its domain codes only;
//   4. common codes.other ("failed (code …)"), or codes.failed when there is no code at all.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { ApiError } from './http/client';

/** The code a failure is read by: transport failures are 'network' or 'timeout', whatever their service calls them. */
export function failureCode(e: unknown): string | undefined {
  if (e instanceof ApiError && e.transport) return e.code === 'timeout' ? 'timeout' : 'network';
  if (e && typeof e === 'object' && 'code' in e) {
    const c = (e as { code: unknown }).code;
    if (typeof c === 'string' || typeof c === 'number') return String(c);
  }
  return undefined;
}

/** The i18next key of a server key: its first segment when that is a namespace, else the common namespace. */
export function keyOf(serverKey: string, namespaces: readonly string[]): string {
  if (serverKey.includes(':')) return serverKey;
  const dot = serverKey.indexOf('.');
  const head = dot > 0 ? serverKey.slice(0, dot) : '';
  return head && head !== 'common' && namespaces.includes(head) ? `${head}:${serverKey.slice(dot + 1)}` : `common:${serverKey}`;
}

/** A failure as a sentence of the current language; ns is the feature whose own codes come third. */
export function errorText(i18n: I18n, ns: string, e: unknown): string {
  const t = i18n.t.bind(i18n) as (key: string, opts?: object) => string;
  const key = e && typeof e === 'object' && 'key' in e ? (e as { key: unknown }).key : undefined;
  if (typeof key === 'string' && key) {
    const nss = i18n.options.ns;
    const k = keyOf(key, Array.isArray(nss) ? nss : typeof nss === 'string' ? [nss] : []);
    if (i18n.exists(k)) return t(k);
  }
  const code = failureCode(e);
  if (code === undefined) return t('common:codes.failed');
  if (i18n.exists(`common:codes.${code}`)) return t(`common:codes.${code}`);
  if (i18n.exists(`${ns}:errors.${code}`)) return t(`${ns}:errors.${code}`);
  return t('common:codes.other', { code });
}

/** errorText for a component of feature ns (re-rendered when the language changes). */
export function useErrorText(ns: string): (e: unknown) => string {
  const { i18n } = useTranslation([ns, 'common']);
  return useCallback((e: unknown) => errorText(i18n, ns, e), [i18n, ns]);
}
