// /patrol-calendar: a month of orders by state (spec §9: a 42-cell grid); a day opens its orders, live.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Drawer, Space, Table } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { formatZoned, wallNow } from '../../../shared/time/zone';
import { patrolApi, patrolKeys, type Order } from '../api';
import { gridRange, monthGrid } from '../calendar';
import { OrderDrawer, OrderState } from '../components/OrderView';
import { useErrorText } from '../../../shared/errorText';
import { PatrolNav } from '../components/PatrolNav';
import { useLivePatrol } from '../useLivePatrol';
import '../patrol.css';

export default function PatrolCalendarPage() {
  const { t, i18n } = useTranslation('patrol');
  const errorText = useErrorText('patrol');
  useLivePatrol();
  const [month, setMonth] = useState(() => wallNow().format('YYYY-MM'));
  const [day, setDay] = useState<string | null>(null);
  const [order, setOrder] = useState<Order | null>(null);
  const { first, last } = gridRange(month);
  const q = { startDate: first, endDate: last };
  const orders = useQuery({ queryKey: patrolKeys.orders(q), queryFn: () => patrolApi.orders(q) });
  const list = useMemo(() => orders.data?.list ?? [], [orders.data]);
  const cells = useMemo(() => monthGrid(month, list), [month, list]);
  const today = wallNow().format('YYYY-MM-DD');
  const weekdays = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { weekday: 'short' });
    return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2024, 0, 1 + i)))); // 2024-01-01 is a Monday
  }, [i18n.language]);
  const title = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long' }).format(dayjs(`${month}-01`).toDate());
  const dayOrders = list.filter((o) => o.day === day);
  const shift = (n: number) => setMonth(dayjs(`${month}-01`).add(n, 'month').format('YYYY-MM'));
  return (
    <div className="page-pad" data-testid="patrol-calendar-page">
      <PatrolNav />
      <Card
        size="small"
        title={
          <Space>
            <Button size="small" icon={<LeftOutlined />} onClick={() => shift(-1)} aria-label={t('calendar.prev')} />
            <span data-testid="calendar-month" data-month={month}>
              {title}
            </span>
            <Button size="small" icon={<RightOutlined />} onClick={() => shift(1)} aria-label={t('calendar.next')} />
            <Button size="small" onClick={() => setMonth(wallNow().format('YYYY-MM'))}>
              {t('calendar.today')}
            </Button>
          </Space>
        }
        extra={
          <Space>
            <Badge color="blue" text={t('state.0')} />
            <Badge color="green" text={t('state.1')} />
            <Badge color="red" text={t('state.2')} />
          </Space>
        }
      >
        {orders.error && <p style={{ color: '#cf1322' }}>{errorText(orders.error)}</p>}
        <div className="patrol-cal">
          {weekdays.map((w) => (
            <div key={w} className="patrol-cal-head">
              {w}
            </div>
          ))}
          {cells.map((c) => (
            <button
              key={c.day}
              className={`patrol-cal-cell${c.inMonth ? '' : ' patrol-cal-out'}${c.day === today ? ' patrol-cal-today' : ''}`}
              onClick={() => setDay(c.day)}
              data-testid="calendar-cell"
              data-day={c.day}
              data-waiting={c.waiting}
              data-normal={c.normal}
              data-abnormal={c.abnormal}
            >
              <span className="patrol-cal-date">{Number(c.day.slice(8))}</span>
              {c.waiting > 0 && <Badge color="blue" text={c.waiting} />}
              {c.normal > 0 && <Badge color="green" text={c.normal} />}
              {c.abnormal > 0 && <Badge color="red" text={c.abnormal} />}
            </button>
          ))}
        </div>
      </Card>
      <Drawer open={!!day} width={720} title={day} onClose={() => setDay(null)} data-testid="calendar-day">
        <Table<Order>
          size="small"
          rowKey="orderId"
          dataSource={dayOrders}
          pagination={false}
          onRow={(r) => ({ onClick: () => setOrder(r), style: { cursor: 'pointer' }, 'data-testid': 'order-row', 'data-state': r.state }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('fields.window'), key: 'w', render: (_, r) => `${formatZoned(r.startTime, 'HH:mm')}–${formatZoned(r.endTime, 'HH:mm')}` },
            { title: t('fields.plan'), dataIndex: 'planName' },
            { title: t('fields.route'), dataIndex: 'routeName' },
            { title: t('fields.patroller'), key: 'ms', render: (_, r) => r.msName || r.msId },
            { title: t('fields.progress'), key: 'p', render: (_, r) => `${r.punched}/${r.total}` },
            { title: t('fields.state'), key: 's', render: (_, r) => <OrderState o={r} /> },
          ]}
        />
      </Drawer>
      {order && <OrderDrawer order={list.find((o) => o.orderId === order.orderId) ?? order} onClose={() => setOrder(null)} />}
    </div>
  );
}
