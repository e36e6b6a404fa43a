// Failures of the alarm actions → sentences of the "alarm" namespace (a voice failure carries its own sentence).
import type { TFunction } from 'i18next';
import { errorText as callErrorText } from '../../shared/alarms/errors';
import { VoiceFailure } from './voice';

export { errorCode, errorKey } from '../../shared/alarms/errors';

/** A failed alarm action as a sentence (t of the "alarm" namespace). */
export function errorText(t: TFunction, e: unknown): string {
  if (e instanceof VoiceFailure) return e.text;
  return callErrorText(t, e);
}
