// The date-time range pickers of the search and report screens (spec §5). Values are wall values of the
// customer's zone (zone.ts); the rules are range.ts's.
import { useTranslation } from 'react-i18next';
import { DatePicker, Typography } from 'antd';
import type { Dayjs } from '../utils/dayjs';
import { checkWallRange, MONTH_DAYS, RANGE_CODES, type RangeProblem } from './range';
import './range.css';

export type WallRange = [Dayjs, Dayjs] | null;

function Picker({ value, onChange, invalid, placeholder }: { value: WallRange; onChange: (r: WallRange) => void; invalid: boolean; placeholder?: [string, string] }) {
  return (
    <DatePicker.RangePicker
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      allowEmpty={[true, true]}
      value={value}
      status={invalid ? 'error' : undefined}
      onChange={(v) => onChange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
      placeholder={placeholder}
    />
  );
}

/** A range checked as it is typed (at most a month), worded in the shared namespace; data-error holds the server's code. */
export function RangeFilter({ value, onChange, testid = 'range' }: { value: WallRange; onChange: (r: WallRange) => void; testid?: string }) {
  const { t } = useTranslation('common');
  const problem = checkWallRange(value, MONTH_DAYS);
  const code = problem && (problem === 'required' ? 'required' : RANGE_CODES[problem]);
  return (
    <span className="msg-range" data-testid={testid} data-error={code ?? ''}>
      <Picker value={value} onChange={onChange} invalid={!!problem} placeholder={[t('range.start'), t('range.end')]} />
      {problem && (
        <Typography.Text type="danger" className="msg-range-error" data-testid={`${testid}-error`}>
          {t(`range.${problem}`)}
        </Typography.Text>
      )}
    </span>
  );
}

/** A range whose problem the screen decides (on search, or from the server's refusal), worded in the screen's namespace `ns` (keys range.<problem>). */
export function RangeField({ value, onChange, error, ns }: { value: WallRange; onChange: (v: WallRange) => void; error: RangeProblem | null; ns: string }) {
  const { t } = useTranslation(ns);
  return (
    <span data-testid="range-field" data-error={error ?? ''}>
      <Picker value={value} onChange={onChange} invalid={!!error} />
      {error && (
        <div className="ant-form-item-explain-error" style={{ color: '#ff4d4f', fontSize: 12 }} data-testid="range-error">
          {t(`range.${error}`)}
        </div>
      )}
    </span>
  );
}
