// Orders (tbPatrolOrder/list, page size 10000): the classes of the days chosen, their state and reasons, live;
// a row opens the order with its points (tbOrderPoint/queryPointsByOrderId).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Progress, Select, Space } from 'antd';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatZoned, wallNow } from '../../../shared/time/zone';
import { patrolApi, patrolKeys, type Order } from '../api';
import { OrderDrawer, OrderState } from './OrderView';
import { PatrollerSelect } from './PatrollerSelect';
import { QueryTable } from '../../../shared/table/QueryTable';

export function OrdersPanel() {
  const { t } = useTranslation('patrol');
  const fmt = useDateTimeFormat();
  const [days, setDays] = useState<[Dayjs, Dayjs]>(() => [wallNow(), wallNow()]);
  const [state, setState] = useState<number>();
  const [msId, setMsId] = useState<string>();
  const [open, setOpen] = useState<Order | null>(null);
  const q = { startDate: days[0].format('YYYY-MM-DD'), endDate: days[1].format('YYYY-MM-DD'), state, msId };
  const orders = useQuery({ queryKey: patrolKeys.orders(q), queryFn: () => patrolApi.orders(q) });
  const list = orders.data?.list ?? [];
  const current = open ? (list.find((o) => o.orderId === open.orderId) ?? open) : null;
  return (
    <div data-testid="patrol-orders">
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker value={days} allowClear={false} onChange={(v) => v?.[0] && v[1] && setDays([v[0], v[1]])} data-testid="orders-days" />
        <Select allowClear placeholder={t('fields.state')} style={{ width: 150 }} value={state} onChange={setState} options={[0, 1, 2].map((s) => ({ value: s, label: t(`state.${s}`) }))} />
        <PatrollerSelect allowClear value={msId} onChange={setMsId} />
      </Space>
      <QueryTable<Order>
        query={orders}
        rowKey="orderId"
        rows={list}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        row={(r) => ({ onClick: () => setOpen(r), style: { cursor: 'pointer' }, 'data-testid': 'order-row', 'data-order': r.orderId, 'data-state': r.state })}
        columns={[
          { title: t('fields.day'), dataIndex: 'day' },
          { title: t('fields.plan'), dataIndex: 'planName' },
          { title: t('fields.className'), dataIndex: 'className' },
          { title: t('fields.route'), dataIndex: 'routeName' },
          { title: t('fields.patroller'), key: 'ms', render: (_, r) => r.msName || r.msId },
          { title: t('fields.window'), key: 'w', render: (_, r) => `${formatZoned(r.startTime, fmt)} – ${formatZoned(r.endTime, 'HH:mm')}` },
          { title: t('fields.progress'), key: 'p', render: (_, r) => <Progress size="small" percent={r.total ? Math.round((r.punched / r.total) * 100) : 0} format={() => `${r.punched}/${r.total}`} /> },
          { title: t('fields.state'), key: 's', render: (_, r) => <OrderState o={r} /> },
        ]}
      />
      {current && <OrderDrawer order={current} onClose={() => setOpen(null)} />}
    </div>
  );
}
