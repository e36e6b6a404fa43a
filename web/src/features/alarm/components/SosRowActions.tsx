// The actions column of the SOS tables (/alarm's open alarms and its history): acknowledge a sending alarm, close
// an open one, reach its terminal.
import type { TFunction } from 'i18next';
import type { ColumnType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { App, Button, Space } from 'antd';
import type { SosAlarm } from '../../../shared/alarms/sos';
import { acknowledgeAlarm } from '../../../shared/alarms/store';
import { ReachButtons } from './ReachButtons';

interface Actions {
  /** data-testid prefix of the buttons: `${testId}-ack`, `${testId}-close`. */
  testId: string;
  child: boolean;
  onClose: (a: SosAlarm) => void;
  fail: (e: unknown) => void;
}

/**
 * The column pinned at the right, as wide as the buttons its rows show and no wider: every pixel of it is a pixel of
 * the text columns hidden under it (issue 33: at 1366 px a 230 px column covered Responder and Remarks). Its buttons
 * stay on one line, their widths those of the longest label of the six languages (Russian's, as small buttons).
 */
export function sosActionsColumn(t: TFunction, actions: Actions, alarms: SosAlarm[]): ColumnType<SosAlarm> {
  const width = 16 + REACH_WIDTH + (alarms.some((a) => a.state === 0) ? ACK_WIDTH : 0) + (alarms.some((a) => a.state < 2) ? CLOSE_WIDTH : 0);
  return { key: 'actions', title: t('col.actions'), fixed: 'right', width: Math.max(width, 120), render: (_, a) => <SosRowActions alarm={a} {...actions} /> };
}

/** The three reach buttons (icons) and the gaps between them; the acknowledge and close buttons with a gap each. */
const REACH_WIDTH = 3 * 24 + 2 * 4;
const ACK_WIDTH = 120;
const CLOSE_WIDTH = 145;

function SosRowActions({ alarm: a, testId, child, onClose, fail }: Actions & { alarm: SosAlarm }) {
  const { t } = useTranslation('alarm');
  const { message } = App.useApp();
  return (
    <Space size={4}>
      {a.state === 0 && (
        <Button size="small" type="primary" danger onClick={() => acknowledgeAlarm(a.id).then(() => message.success(t('done.acknowledged')), fail)} data-testid={`${testId}-ack`}>
          {t('interrupt.ack')}
        </Button>
      )}
      {a.state < 2 && (
        <Button size="small" danger onClick={() => onClose(a)} data-testid={`${testId}-close`}>
          {t('interrupt.close')}
        </Button>
      )}
      <ReachButtons alarm={a} child={child} fail={fail} />
    </Space>
  );
}
