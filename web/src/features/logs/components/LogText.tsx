import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useDirectory } from '../../../shared/directory/store';
import { formatZoned } from '../../../shared/time/zone';
import type { LogEntry } from '../api';
import { detailText, type Names } from '../entries';

const group = (gid: string) => useDirectory.getState().groups[gid]?.name;
const terminal = (cid: string) => useDirectory.getState().terminals[cid]?.name;

/**
 * An entry's remark in the viewer's language, with group and terminal names from the directory store. One line
 * (issue 33: a temp group's members or a message made a row of the log five lines high at 1366 px): cut with an
 * ellipsis, the whole remark in a tooltip.
 */
export function LogText({ entry, actor }: { entry: LogEntry; /** Who acted, before the remark (the live panel). */ actor?: string }) {
  const { t } = useTranslation('logs');
  useDirectory((s) => s.structure); // group renames and membership
  useDirectory((s) => s.loaded);
  const dateTime = useDateTimeFormat();
  const names: Names = { group, terminal, time: (ms) => formatZoned(ms, dateTime) };
  const detail = detailText(entry, t, names);
  const text = actor ? `${actor} ${detail}` : detail;
  return (
    <Typography.Text ellipsis={{ tooltip: text }} data-testid="log-text" style={{ display: 'block', color: 'inherit' }}>
      {text}
    </Typography.Text>
  );
}
