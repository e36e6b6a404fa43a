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

export function sosActionsColumn(t: TFunction, actions: Actions): ColumnType<SosAlarm> {
  return { key: 'actions', title: t('col.actions'), fixed: 'right', width: 230, render: (_, a) => <SosRowActions alarm={a} {...actions} /> };
}

function SosRowActions({ alarm: a, testId, child, onClose, fail }: Actions & { alarm: SosAlarm }) {
  const { t } = useTranslation('alarm');
  const { message } = App.useApp();
  return (
    <Space size={4} wrap>
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
