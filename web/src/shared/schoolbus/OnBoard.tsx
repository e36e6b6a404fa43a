// Who is on a bus now (docs/api.md "School bus"): the students whose last card punch boarded this terminal's bus,
// shown in the terminal's info panel. Nothing shows for a terminal that carries no student. Kept live by the
// bus.punched event; refetched when the socket comes (back) online (shared useLiveQueries).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { List, Typography } from 'antd';
import { http } from '../http/client';
import { useLiveQueries, type LiveKeys } from '../socket/useLiveQueries';
import { queryKeys } from '../queryKeys';
import { formatZoned } from '../time/zone';
import { useDateTimeFormat } from '../branding/store';

export interface BusStudent {
  id: number;
  studentNum: string;
  studentName: string;
  guardianName: string;
  guardianPhone: string;
  lastPunch: { time: number } | null;
}

export interface Bus {
  busId: string;
  busName: string;
  students: BusStudent[];
}

export const schoolbusKeys = queryKeys('schoolbus', ['onboard']);

/** A punch may move a student onto or off any bus: it refreshes every bus's list. */
export const SCHOOLBUS_EVENTS: Record<string, LiveKeys> = {
  'bus.punched': [schoolbusKeys.onboard.all],
};

export const onboardApi = {
  get: (busId: string) => http.get<{ list: Bus[] }>('/ds/schoolCar/onboard', { busId }).then((r) => r.list[0]?.students ?? []),
};

export function OnBoard({ busId }: { busId: string }) {
  const { t } = useTranslation('common');
  const dateTime = useDateTimeFormat();
  useLiveQueries(SCHOOLBUS_EVENTS, schoolbusKeys.all);
  const q = useQuery({ queryKey: schoolbusKeys.onboard(busId), queryFn: () => onboardApi.get(busId), staleTime: 30_000 });
  const list = q.data ?? [];
  if (list.length === 0) return null;
  return (
    <div data-testid="bus-onboard" data-count={list.length} style={{ marginBottom: 12 }}>
      <Typography.Text strong>{t('schoolbus.onboard', { count: list.length })}</Typography.Text>
      <List
        size="small"
        dataSource={list}
        renderItem={(s) => (
          <List.Item data-testid="bus-student" data-num={s.studentNum}>
            <List.Item.Meta
              title={`${s.studentName} (${s.studentNum})`}
              description={t('schoolbus.since', {
                time: s.lastPunch ? formatZoned(s.lastPunch.time, dateTime) : '—',
                guardian: s.guardianName,
                phone: s.guardianPhone,
              })}
            />
          </List.Item>
        )}
      />
    </div>
  );
}
