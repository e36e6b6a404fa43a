// /lonework and /lonework-child: lone-worker plans with live work state, status and countdowns; create, edit,
// end, delete; the alarms of a plan.
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Badge, Button, Card, DatePicker, Popconfirm, Space, Switch, Tag, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, PoweroffOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { useErrorText } from '../../../shared/errorText';
import { useLiveStatus } from '../../../shared/socket/live';
import { commaList, useTerminalFilter } from '../../../shared/report/TerminalFilter';
import { ChoicesFilter } from '../../../shared/report/ChoicesFilter';
import { QueryTable } from '../../../shared/table/QueryTable';
import { useNow } from '../../../shared/utils/useNow';
import { formatZoned, wallNow } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { loneworkApi, loneworkKeys, type Plan, type PlanListQuery } from '../api';
import type { LivePlan } from '../countdown';
import { planActions } from '../rows';
import { useLivePlans } from '../useLivePlans';
import { AlarmsDrawer } from '../components/AlarmsDrawer';
import { Countdown } from '../components/Countdown';
import { PlanDialog } from '../components/PlanDialog';

const STATUS_COLOR = { 0: 'green', 1: 'red', 2: 'default' } as const;
const WORK_COLOR = { 0: 'blue', 1: 'processing', 2: 'default' } as const;

export default function LoneworkPage() {
  const { t } = useTranslation('lonework');
  const { message } = App.useApp();
  const socket = useLiveStatus((s) => s.status);
  const dateTime = useDateTimeFormat();
  const now = useNow(1000);
  const [day, setDay] = useState<Dayjs | null>(() => wallNow());
  const [statuses, setStatuses] = useState<number[]>([]);
  const terminals = useTerminalFilter(t('filter.terminals'), 'filter-terminals');
  const query: PlanListQuery = useMemo(
    () => ({ queryDate: day ? day.format('YYYY-MM-DD') : undefined, status: commaList(statuses), msId: terminals.joined }),
    [day, statuses, terminals.joined],
  );
  const { rows, loading, refetch } = useLivePlans(query);
  const qc = useQueryClient();
  const errorText = useErrorText('lonework');
  const [dialog, setDialog] = useState<{ plan: Plan | null } | null>(null);
  const [alarmsOf, setAlarmsOf] = useState<Plan[]>([]);
  const [selected, setSelected] = useState<string[]>([]);

  const fail = (e: unknown) => message.error(errorText(e));
  // A change this console made: the list is read again now rather than when its lonework.state arrives.
  const changed = () => void qc.invalidateQueries({ queryKey: loneworkKeys.list.all });

  const remove = async (ids: string[]) => {
    try {
      await loneworkApi.remove(ids);
      changed();
      setSelected((s) => s.filter((x) => !ids.includes(x)));
      message.success(t('done.deleted', { count: ids.length }));
    } catch (e) {
      fail(e);
    }
  };

  const selectedRows = rows.filter((r) => selected.includes(r.id));
  const canRemoveSelected = selectedRows.length > 0 && selectedRows.every((r) => planActions(r).remove);

  return (
    <div className="page-pad" data-testid="lonework-page" data-socket={socket}>
      <Card size="small" title={t('title')}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ plan: null })} data-testid="plan-new">
            {t('actions.new')}
          </Button>
          <DatePicker value={day} onChange={setDay} allowClear placeholder={t('filter.allDays')} data-testid="filter-day" />
          <ChoicesFilter values={[0, 1, 2]} label={(s) => t(`status.${s}`)} value={statuses} onChange={setStatuses} placeholder={t('filter.status')} />
          {terminals.picker}
          <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
            {t('actions.reload')}
          </Button>
          <Popconfirm title={t('confirm.delete', { count: selected.length })} onConfirm={() => remove(selected)} disabled={!canRemoveSelected}>
            <Button danger icon={<DeleteOutlined />} disabled={!canRemoveSelected}>
              {t('actions.deleteSelected')}
            </Button>
          </Popconfirm>
        </Space>
        <QueryTable<LivePlan>
          query={{ isLoading: loading }}
          rows={rows}
          scroll={{ x: 1800 }}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          row={(p) => ({ 'data-testid': 'plan-row', 'data-id': p.id, 'data-ms-id': p.msId, 'data-status': p.status, 'data-work-state': p.workState, 'data-alarms': p.alarmCount })}
          columns={[
            { key: 'terminal', title: t('col.terminal'), render: (_, p) => `${p.msName || p.msId} (${p.msId})`, fixed: 'left', width: 170 },
            { key: 'date', title: t('col.date'), dataIndex: 'date', width: 110 },
            { key: 'time', title: t('col.time'), dataIndex: 'time', width: 70 },
            { key: 'duration', title: t('col.duration'), render: (_, p) => t('unit.minutes', { n: p.duration }), width: 100 },
            { key: 'interval', title: t('col.interval'), render: (_, p) => t('unit.minutes', { n: p.interval }), width: 100 },
            { key: 'countdownSec', title: t('col.countdown'), render: (_, p) => t('unit.seconds', { n: p.countdown }), width: 100 },
            { key: 'work', title: t('col.workState'), render: (_, p) => <Tag color={WORK_COLOR[p.workState]} data-testid="plan-work-state">{t(`workState.${p.workState}`)}</Tag>, width: 120 },
            { key: 'status', title: t('col.status'), render: (_, p) => <Tag color={STATUS_COLOR[p.status]} data-testid="plan-status">{t(`status.${p.status}`)}</Tag>, width: 100 },
            { key: 'live', title: t('col.live'), render: (_, p) => <Countdown plan={p} now={now} />, width: 170 },
            {
              key: 'alarms',
              title: t('col.alarmCount'),
              width: 90,
              render: (_, p) => (
                <Button size="small" type="link" onClick={() => setAlarmsOf([p])} data-testid="plan-alarms">
                  <Badge count={p.alarmCount} showZero color={p.alarmCount ? '#ff4d4f' : '#bfbfbf'} />
                </Button>
              ),
            },
            { key: 'planned', title: t('col.planned'), render: (_, p) => `${formatZoned(p.sTime, dateTime)} – ${formatZoned(p.eTime, dateTime)}`, width: 330 },
            { key: 'realStart', title: t('col.realStart'), render: (_, p) => formatZoned(p.realStart, dateTime), width: 165 },
            { key: 'realStop', title: t('col.realStop'), render: (_, p) => formatZoned(p.realStop, dateTime), width: 165 },
            {
              key: 'enabled',
              title: t('col.enabled'),
              width: 80,
              render: (_, p) => (
                <Switch
                  size="small"
                  checked={p.enabled === 1}
                  disabled={!planActions(p).toggle}
                  onChange={(v) => loneworkApi.update(p.id, { enabled: v ? 1 : 0 }).then(changed, fail)}
                />
              ),
            },
            {
              key: 'actions',
              title: t('col.actions'),
              fixed: 'right',
              width: 150,
              render: (_, p) => {
                const can = planActions(p);
                return (
                  <Space size={4}>
                    <Tooltip title={can.edit ? t('actions.edit') : t('errors.88')}>
                      <Button size="small" icon={<EditOutlined />} disabled={!can.edit} onClick={() => setDialog({ plan: p })} data-testid="plan-edit" aria-label={t('actions.edit')} />
                    </Tooltip>
                    {can.end && (
                      <Popconfirm title={t('confirm.end')} onConfirm={() => loneworkApi.end(p.id).then(changed, fail)}>
                        <Tooltip title={t('actions.end')}>
                          <Button size="small" icon={<PoweroffOutlined />} data-testid="plan-end" aria-label={t('actions.end')} />
                        </Tooltip>
                      </Popconfirm>
                    )}
                    <Popconfirm title={t('confirm.delete', { count: 1 })} onConfirm={() => remove([p.id])} disabled={!can.remove}>
                      <Tooltip title={can.remove ? t('actions.delete') : t('errors.88')}>
                        <Button size="small" danger icon={<DeleteOutlined />} disabled={!can.remove} data-testid="plan-delete" aria-label={t('actions.delete')} />
                      </Tooltip>
                    </Popconfirm>
                  </Space>
                );
              },
            },
          ]}
        />
      </Card>
      <PlanDialog
        open={!!dialog}
        plan={dialog?.plan ?? null}
        onClose={(saved) => {
          setDialog(null);
          if (saved) void refetch();
        }}
      />
      <AlarmsDrawer plans={alarmsOf} onClose={() => setAlarmsOf([])} />
    </div>
  );
}
