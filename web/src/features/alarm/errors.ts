// Failures of the alarm actions as sentences: shared/errorText (the server's key, the common codes, then the
// "alarm" namespace's own errors.*); a voice failure (calling or listening from an alarm) carries its own.
import { useCallback } from 'react';
import { useErrorText } from '../../shared/errorText';
import { VoiceFailure } from './voice';

/** The sentence of a failed alarm action, in the current language. */
export function useAlarmErrorText(): (e: unknown) => string {
  const text = useErrorText('alarm');
  return useCallback((e: unknown) => (e instanceof VoiceFailure ? e.text : text(e)), [text]);
}
