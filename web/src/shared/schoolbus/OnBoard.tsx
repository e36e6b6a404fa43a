// Who is on a bus now (docs/api.md "School bus"): the students whose last card punch boarded this terminal's bus,
// shown in the terminal's info panel. Nothing shows for a terminal that carries no student. Kept live by the
// bus.punched event; refetched after a reconnect.
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { List, Typography } from 'antd';
import { http } from '../http/client';
import { live, onResync } from '../socket/live';
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

const key = (busId: string) => ['schoolbus', 'onboard', busId] as const;

export const onboardApi = {
  get: (busId: string) => http.get<{ list: Bus[] }>('/ds/schoolCar/onboard', { busId }).then((r) => r.list[0]?.students ?? []),
};

export function OnBoard({ busId }: { busId: string }) {
  const { t } = useTranslation('common');
  const dateTime = useDateTimeFormat();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: key(busId), queryFn: () => onboardApi.get(busId), staleTime: 30_000 });
  useEffect(() => {
    const refresh = () => void qc.invalidateQueries({ queryKey: ['schoolbus', 'onboard'] });
    const offs = [live().on('bus.punched', refresh), onResync(refresh)];
    return () => offs.forEach((off) => off());
  }, [qc]);
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
