import { useTranslation } from 'react-i18next';
import { DatePicker, Typography } from 'antd';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { codeText } from '../codes';
import { checkWallRange } from '../timeRange';

export type WallRange = [Dayjs, Dayjs] | null;

/** A date-time range in the customer's zone with the spec §5 checks shown under it. */
export function RangeFilter({ value, onChange, testid = 'range' }: { value: WallRange; onChange: (r: WallRange) => void; testid?: string }) {
  const { t } = useTranslation('message');
  const error = checkWallRange(value);
  return (
    <span className="msg-range" data-testid={testid} data-error={error ?? ''}>
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={value}
        allowEmpty={[true, true]}
        status={error ? 'error' : undefined}
        onChange={(v) => onChange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
        placeholder={[t('range.start'), t('range.end')]}
      />
      {error && (
        <Typography.Text type="danger" className="msg-range-error" data-testid={`${testid}-error`}>
          {codeText(t, error)}
        </Typography.Text>
      )}
    </span>
  );
}
