import type { TFunction } from 'i18next';

/** The code of a failed voice request (socket reply code, engine code, REST code). */
export function voiceErrorCode(e: unknown): string {
  if (e && typeof e === 'object' && 'code' in e) return String((e as { code: unknown }).code);
  return 'failed';
}

/** A voice request's failure as a sentence of the 'voice' namespace. */
export function voiceErrorText(t: TFunction, e: unknown): string {
  const code = voiceErrorCode(e);
  return t(`errors.${code}`, { defaultValue: t('errors.other', { code }) });
}
