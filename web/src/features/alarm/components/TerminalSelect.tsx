// Terminal picker of the safety screens: the customer's terminals (dispatcher positions left out) from the
// directory snapshot, searchable by name or number.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { groupsQuery } from '../../../shared/directory/api';
import { normalise } from '../../../shared/directory/store';
import { isDispatcher } from '../../../shared/directory/model';

export function useTerminalOptions() {
  const q = useQuery(groupsQuery());
  return useMemo(() => {
    if (!q.data) return [];
    const { terminals } = normalise(q.data);
    return Object.values(terminals)
      .filter((t) => !isDispatcher(t))
      .sort((a, b) => a.cid.localeCompare(b.cid))
      .map((t) => ({ value: t.cid, label: `${t.name || t.cid} (${t.cid})` }));
  }, [q.data]);
}

export function TerminalSelect(props: {
  value?: string[];
  onChange?: (v: string[]) => void;
  placeholder?: string;
  maxCount?: number;
  disabled?: boolean;
  status?: 'error';
  style?: React.CSSProperties;
  testId?: string;
}) {
  const options = useTerminalOptions();
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      maxTagCount="responsive"
      options={options}
      value={props.value}
      onChange={props.onChange}
      placeholder={props.placeholder}
      maxCount={props.maxCount}
      disabled={props.disabled}
      status={props.status}
      style={{ minWidth: 240, ...props.style }}
      data-testid={props.testId ?? 'terminal-select'}
    />
  );
}
