// The alarms of one or more plans (GET findAlarm), live; handle with a remark (PUT updateAlarm, editable later);
// raise one by hand for a plan in progress (POST addAlarm).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Drawer, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useErrorText } from '../../../shared/errorText';
import { REMARK_MAX } from '../../../shared/alarms/sos';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { loneworkApi, loneworkKeys, REASONS, type LoneAlarm, type Plan, type Reason } from '../api';
import { QueryTable } from '../../../shared/table/QueryTable';

export function AlarmsDrawer({ plans, onClose }: { plans: Plan[]; onClose: () => void }) {
  const { t } = useTranslation('lonework');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  const ids = plans.map((p) => p.id);
  const open = ids.length > 0;
  const q = useQuery({ queryKey: loneworkKeys.alarms(ids), queryFn: () => loneworkApi.findAlarm(ids), enabled: open });
  const [editing, setEditing] = useState<LoneAlarm | null>(null);
  const [remark, setRemark] = useState('');
  const [reason, setReason] = useState<Reason>(5);
  const [busy, setBusy] = useState(false);
  const { refetch } = q;
  const working = plans.filter((p) => p.workState === 1);

  const errorText = useErrorText('lonework');
  const fail = (e: unknown) => message.error(errorText(e));

  const saveRemark = async () => {
    if (!editing) return;
    if (!remark.trim()) {
      message.warning(t('alarms.remarkRequired'));
      return;
    }
    setBusy(true);
    try {
      await loneworkApi.updateAlarm(editing.id, remark.trim());
      message.success(t('done.handled'));
      setEditing(null);
      void refetch();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const raise = async () => {
    if (!working[0]) return;
    try {
      await loneworkApi.addAlarm(working[0].id, reason);
      void refetch();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <Drawer open={open} onClose={onClose} size={760} title={t('alarms.title', { names: plans.map((p) => p.msName || p.msId).join(', ') })} destroyOnHidden>
      <div data-testid="lonework-alarms" data-count={q.data?.total ?? 0}>
        {working.length === 1 && (
          <Space style={{ marginBottom: 12 }}>
            <Select value={reason} onChange={setReason} style={{ width: 200 }} options={REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) }))} />
            <Button onClick={raise} data-testid="lonework-raise">
              {t('alarms.raise')}
            </Button>
          </Space>
        )}
        <QueryTable<LoneAlarm>
          query={q}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          row={(a) => ({ 'data-testid': 'lonework-alarm-row', 'data-id': a.id, 'data-reason': a.reason, 'data-handled': a.handleTime ? '1' : '0' })}
          columns={[
            { key: 'time', title: t('col.alarmTime'), render: (_, a) => formatZoned(a.alarmTime, dateTime), width: 170 },
            { key: 'ms', title: t('col.terminal'), render: (_, a) => `${a.msName || a.msId} (${a.msId})`, width: 160 },
            { key: 'reason', title: t('col.reason'), render: (_, a) => <Tag color="volcano">{t(`reason.${a.reason}`)}</Tag>, width: 130 },
            { key: 'handler', title: t('col.handler'), render: (_, a) => (a.handleTime ? `${a.handlerName || a.handler} · ${formatZoned(a.handleTime, dateTime)}` : <Tag color="red">{t('alarms.unhandled')}</Tag>) },
            { key: 'remark', title: t('col.remark'), render: (_, a) => <Typography.Text ellipsis={{ tooltip: a.remark }} style={{ maxWidth: 160 }}>{a.remark || '—'}</Typography.Text> },
            {
              key: 'act',
              title: '',
              width: 90,
              render: (_, a) => (
                <Button
                  size="small"
                  type={a.handleTime ? 'default' : 'primary'}
                  onClick={() => {
                    setEditing(a);
                    setRemark(a.remark ?? '');
                  }}
                  data-testid="lonework-alarm-remark"
                >
                  {a.handleTime ? t('alarms.editRemark') : t('alarms.handle')}
                </Button>
              ),
            },
          ]}
        />
      </div>
      <Modal open={!!editing} title={t('alarms.remarkTitle')} onOk={saveRemark} confirmLoading={busy} onCancel={() => setEditing(null)} okButtonProps={{ 'data-testid': 'lonework-remark-save' }}>
        <Input.TextArea rows={3} maxLength={REMARK_MAX} showCount value={remark} onChange={(e) => setRemark(e.target.value)} data-testid="lonework-remark-input" />
      </Modal>
    </Drawer>
  );
}
