import type { TFunction } from 'i18next';
import { ApiError } from '../../../shared/http/client';

/** The text of a refused patrol call: its code's message in the patrol namespace, else the generic one. */
export function patrolError(t: TFunction, e: unknown): string {
  const code = e instanceof ApiError ? e.code : 'other';
  return t(`errors.${code}`, { defaultValue: t('errors.other', { code }) });
}
