// The terminals filter of the report and list screens: a multiple terminal picker, and the picked ids as their
// servers take them (one comma-separated parameter, absent for every terminal).
import { useState } from 'react';
import { TerminalPicker } from '../directory/TerminalPicker';

/** values as one comma-separated parameter, undefined when there are none (no filter). */
export const commaList = (values: readonly (string | number)[]): string | undefined => (values.length ? values.join(',') : undefined);

/** The picked terminals (ids), the same as one parameter (joined) and the picker that changes them. */
export function useTerminalFilter(placeholder: string, testId = 'terminal-select') {
  const [ids, setIds] = useState<string[]>([]);
  const picker = <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={ids} onChange={setIds} placeholder={placeholder} testId={testId} />;
  return { ids, joined: commaList(ids), picker };
}
