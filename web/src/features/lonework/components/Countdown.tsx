import { useTranslation } from 'react-i18next';
import { Tag, Typography } from 'antd';
import { clock } from '../../../shared/time/zone';
import { checkinLeft, nextCheckLeft, startsIn, type LivePlan } from '../countdown';

/** The live countdown of a plan: a prompt waiting for the worker (red), the next check, or the start. */
export function Countdown({ plan, now }: { plan: LivePlan; now: number }) {
  const { t } = useTranslation('lonework');
  const checkin = checkinLeft(plan, now);
  if (checkin !== null) {
    return (
      <Tag color="red" data-testid="plan-countdown" data-kind="checkin" data-left={Math.round(checkin / 1000)}>
        {t('countdown.checkin', { time: clock(checkin) })}
      </Tag>
    );
  }
  const next = nextCheckLeft(plan, now);
  if (next !== null) {
    return (
      <Typography.Text data-testid="plan-countdown" data-kind="next" data-left={Math.round(next / 1000)}>
        {t('countdown.next', { time: clock(next) })}
      </Typography.Text>
    );
  }
  const start = startsIn(plan, now);
  if (start !== null) {
    return (
      <Typography.Text type="secondary" data-testid="plan-countdown" data-kind="start" data-left={Math.round(start / 1000)}>
        {t('countdown.start', { time: clock(start) })}
      </Typography.Text>
    );
  }
  return <span data-testid="plan-countdown" data-kind="none">—</span>;
}
