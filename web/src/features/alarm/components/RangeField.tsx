// The time-range field of the safety screens (spec §5): start and end required, start not after end, one
// calendar month of the customer's zone. Values are wall values (see zone.ts).
import { useTranslation } from 'react-i18next';
import { DatePicker } from 'antd';
import type { Dayjs } from '../../../shared/utils/dayjs';
import type { RangeError } from '../timeRange';

export function RangeField({ value, onChange, error }: { value: [Dayjs, Dayjs] | null; onChange: (v: [Dayjs, Dayjs] | null) => void; error: RangeError | null }) {
  const { t } = useTranslation('alarm');
  return (
    <span data-testid="range-field" data-error={error ?? ''}>
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        allowEmpty={[true, true]}
        value={value}
        status={error ? 'error' : undefined}
        onChange={(v) => onChange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
      />
      {error && (
        <div className="ant-form-item-explain-error" style={{ color: '#ff4d4f', fontSize: 12 }} data-testid="range-error">
          {t(`range.${error}`)}
        </div>
      )}
    </span>
  );
}
