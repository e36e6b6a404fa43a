// The one terminal picker: the customer's terminals from the directory store (dispatcher positions left out),
// searchable by name or number. A screen without the live directory still gets the list (useDirectoryLoaded).
import { useMemo } from 'react';
import { Select } from 'antd';
import { useDirectory } from './store';
import { isDispatcher } from './model';
import { useDirectoryLoaded } from './choices';

interface Common {
  placeholder?: string;
  testId?: string;
  style?: React.CSSProperties;
  status?: 'error';
  disabled?: boolean;
  /** Most terminals that may be picked (multiple only). */
  maxCount?: number;
  /** Chips shown before "+N" (multiple only; default 3). */
  maxTagCount?: number | 'responsive';
}
type Props = Common & ({ multiple: true; value?: string[]; onChange: (v: string[]) => void } | { multiple?: false; value?: string; onChange: (v: string | undefined) => void });

export function useTerminalOptions(): { value: string; label: string }[] {
  useDirectoryLoaded();
  const structure = useDirectory((s) => s.structure);
  return useMemo(() => {
    const terminals = useDirectory.getState().terminals;
    return Object.values(terminals)
      .filter((t) => !isDispatcher(t))
      .sort((a, b) => a.cid.localeCompare(b.cid))
      .map((t) => ({ value: t.cid, label: `${t.name || t.cid} (${t.cid})` }));
  }, [structure]); // eslint-disable-line react-hooks/exhaustive-deps -- structure changes whenever a terminal's name or group does
}

export function TerminalPicker(props: Props) {
  const options = useTerminalOptions();
  const { multiple, maxTagCount = 3 } = props;
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      maxTagCount={multiple ? maxTagCount : undefined}
      maxCount={multiple ? props.maxCount : undefined}
      value={props.value}
      onChange={props.onChange as (v: string | string[] | undefined) => void}
      options={options}
      placeholder={props.placeholder}
      disabled={props.disabled}
      style={{ minWidth: 220, ...props.style }}
      data-testid={props.testId}
      status={props.status}
    />
  );
}
