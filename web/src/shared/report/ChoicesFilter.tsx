// A filter of several fixed values (an alarm's states, a plan's statuses): a multiple select whose options are the
// values, each worded by label. What the screen sends is commaList(value) (TerminalFilter.tsx).
import { Select } from 'antd';

interface Props<V extends string | number> {
  values: readonly V[];
  label: (v: V) => string;
  value: V[];
  onChange: (v: V[]) => void;
  placeholder: string;
  minWidth?: number;
  testId?: string;
}

export function ChoicesFilter<V extends string | number>({ values, label, value, onChange, placeholder, minWidth = 160, testId }: Props<V>) {
  return (
    <Select<V[]>
      mode="multiple"
      allowClear
      placeholder={placeholder}
      style={{ minWidth }}
      value={value}
      onChange={onChange}
      options={values.map((v) => ({ value: v, label: label(v) }))}
      data-testid={testId}
    />
  );
}
