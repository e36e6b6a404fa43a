// How the map's screens show a failed call: useErrorText (the server's key, the common codes, then the map's own).
import { useCallback } from 'react';
import { App } from 'antd';
import { useErrorText } from '../../shared/errorText';

/** A failure as an error message. */
export function useFail(): (e: unknown) => void {
  const errorText = useErrorText('map');
  const { message } = App.useApp();
  return useCallback((e: unknown) => void message.error(errorText(e)), [errorText, message]);
}
