import { useTranslation } from 'react-i18next';
import { useDirectory } from '../../../shared/directory/store';
import type { LogEntry } from '../api';
import { detailText, type Names } from '../entries';

const names: Names = {
  group: (gid) => useDirectory.getState().groups[gid]?.name,
  terminal: (cid) => useDirectory.getState().terminals[cid]?.name,
};

/** An entry's remark in the viewer's language, with group and terminal names from the directory store. */
export function LogText({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation('logs');
  useDirectory((s) => s.structure); // group renames and membership
  useDirectory((s) => s.loaded);
  return <span data-testid="log-text">{detailText(entry, t, names)}</span>;
}
