// One order: its state and reasons, and its points in route order with how and when each was punched, on the map.
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Tag } from 'antd';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { formatZoned } from '../../../shared/time/zone';
import { patrolApi, patrolKeys, type Order, type OrderPoint } from '../api';
import { PatrolMap } from './PatrolMap';
import { STATE_COLORS } from './PointsLayer';
import { QueryTable } from '../../../shared/table/QueryTable';

export const ORDER_COLOR = { 0: 'blue', 1: 'green', 2: 'red' } as const;

export function OrderState({ o }: { o: Pick<Order, 'state' | 'reasons'> }) {
  const { t } = useTranslation('patrol');
  return (
    <span data-testid="order-state" data-state={o.state}>
      <Tag color={ORDER_COLOR[o.state]}>{t(`state.${o.state}`)}</Tag>
      {o.reasons?.map((r) => (
        <Tag key={r} color="volcano">
          {t(`reason.${r}`)}
        </Tag>
      ))}
    </span>
  );
}

export function OrderDrawer({ order, onClose }: { order: Order; onClose: () => void }) {
  const { t } = useTranslation('patrol');
  const fmt = useDateTimeFormat();
  const points = useQuery({ queryKey: patrolKeys.orderPoints(order.orderId), queryFn: () => patrolApi.orderPoints(order.orderId) });
  const list = points.data ?? [];
  return (
    <Drawer open width={640} title={`${order.planName} · ${order.className}`} onClose={onClose} data-testid="order-drawer">
      <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('fields.route')}>{order.routeName}</Descriptions.Item>
        <Descriptions.Item label={t('fields.patroller')}>{order.msName || order.msId}</Descriptions.Item>
        <Descriptions.Item label={t('fields.window')}>
          {formatZoned(order.startTime, fmt)} – {formatZoned(order.endTime, fmt)}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.state')}>
          <OrderState o={order} />
        </Descriptions.Item>
      </Descriptions>
      <QueryTable<OrderPoint>
        query={points}
        rowKey="seq"
        rows={list}
        pagination={false}
        row={(r) => ({ 'data-testid': 'order-point', 'data-name': r.name, 'data-state': r.state })}
        columns={[
          { title: '#', dataIndex: 'seq', width: 40 },
          { title: t('fields.point'), dataIndex: 'name' },
          {
            title: t('fields.state'),
            dataIndex: 'state',
            render: (s: number) => <Tag color={STATE_COLORS[s]}>{t(`pointState.${s}`)}</Tag>,
          },
          { title: t('fields.punchTime'), dataIndex: 'punchTime', render: (v: number) => (v ? formatZoned(v, fmt) : '') },
          { title: t('fields.method'), dataIndex: 'method', render: (m: string) => (m ? t(`method.${m}`) : '') },
        ]}
        style={{ marginBottom: 12 }}
      />
      <PatrolMap points={list.map((p) => ({ id: p.pointId, name: p.name, lat: p.lat, lng: p.lng, radius: p.radius, state: p.state }))} route height={300} />
    </Drawer>
  );
}
