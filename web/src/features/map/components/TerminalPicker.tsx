import { useMemo } from 'react';
import { Select } from 'antd';
import { useDirectory } from '../../../shared/directory/store';
import { isDispatcher } from '../../../shared/directory/model';

interface Props {
  value?: string | string[];
  onChange: (v: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  multiple?: boolean;
  placeholder?: string;
  testId?: string;
  style?: React.CSSProperties;
  status?: 'error';
}

/** Terminals of the directory by name or id (dispatchers left out). */
export function TerminalPicker({ value, onChange, multiple, placeholder, testId, style, status }: Props) {
  const structure = useDirectory((s) => s.structure);
  const options = useMemo(() => {
    const terminals = useDirectory.getState().terminals;
    return Object.values(terminals)
      .filter((t) => !isDispatcher(t))
      .sort((a, b) => a.cid.localeCompare(b.cid))
      .map((t) => ({ value: t.cid, label: `${t.name || t.cid} (${t.cid})` }));
  }, [structure]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      maxTagCount={multiple ? 3 : undefined}
      value={value}
      onChange={onChange}
      options={options}
      placeholder={placeholder}
      style={{ minWidth: 220, ...style }}
      data-testid={testId}
      status={status}
    />
  );
}
