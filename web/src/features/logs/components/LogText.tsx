import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useDirectory } from '../../../shared/directory/store';
import { formatZoned } from '../../../shared/time/zone';
import type { LogEntry } from '../api';
import { detailText, type Names } from '../entries';

const group = (gid: string) => useDirectory.getState().groups[gid]?.name;
const terminal = (cid: string) => useDirectory.getState().terminals[cid]?.name;

/** An entry's remark in the viewer's language, with group and terminal names from the directory store. */
export function LogText({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation('logs');
  useDirectory((s) => s.structure); // group renames and membership
  useDirectory((s) => s.loaded);
  const dateTime = useDateTimeFormat();
  const names: Names = { group, terminal, time: (ms) => formatZoned(ms, dateTime) };
  return <span data-testid="log-text">{detailText(entry, t, names)}</span>;
}
