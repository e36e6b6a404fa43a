import type { TFunction } from 'i18next';
import { ApiError } from '../../shared/http/client';

/** A failed report query as a sentence of the gpsreport namespace. */
export function codeText(t: TFunction, e: unknown): string {
  const code = e instanceof ApiError ? e.code : 'failed';
  return t(`codes.${code}`, { defaultValue: t('codes.failed', { code }) });
}
