import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { live, useLiveStatus } from '../../shared/socket/live';
import { useLiveQueries } from '../../shared/socket/useLiveQueries';
import { refreshPositions } from './positions';
import { useSettings } from '../../shared/settings';
import { geoKeys, type FenceAlarm } from '../../shared/geo/api';
import { playAlarm } from './alarmSound';
import { desktopNotify } from '../../shared/notify';
import { applyFenceAlarm, useMapLive } from '../../shared/geo/live';

/** While the socket is down, positions come from gps_{x}.bin every POLL_MS (positions.ts). */
const POLL_MS = 15_000;

/** The fences and marks a map screen draws go stale on their change events; everything geo refetches after a (re)login. */
const LIVE_GEO = { 'fence.changed': [geoKeys.fences()], 'mark.changed': [geoKeys.marks()] };

/** Subscribes the map screens to the live events they draw, and announces fence alarms with sound. */
export function useMapLiveFeed(): void {
  const { t } = useTranslation('map');
  const { notification } = App.useApp();
  const status = useLiveStatus((s) => s.status);
  useLiveQueries(LIVE_GEO, geoKeys.all);

  useEffect(() => {
    if (status === 'online' || status === 'idle') return;
    const poll = () => void refreshPositions(live().customerId).catch(() => {});
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [status]);

  useEffect(() => {
    const sock = live();
    const onAlarm = (a: FenceAlarm, raised: boolean) => {
      if (raised) document.documentElement.dataset.fenceAlarmAt = String(Date.now()); // when it arrived (tests time it)
      const { patch, isNew } = applyFenceAlarm(useMapLive.getState(), a);
      useMapLive.setState(patch);
      if (!raised || !isNew || a.status !== 0) return;
      const s = useSettings.getState();
      if (s.sounds.alarm) playAlarm(s.alarmVolume);
      const title = t('alarm.title');
      const body = t(a.type === 'leave' ? 'alarm.left' : 'alarm.entered', { name: a.msName || a.msId, fence: a.fenceName });
      desktopNotify(`fence-${title}-${body}`, title, body);
      notification.warning({
        key: `fence-alarm-${a.id}`,
        message: title,
        description: <span data-testid="fence-alarm-notice" data-alarm-id={a.id} data-ms-id={a.msId}>{body}</span>,
        duration: 8,
        placement: 'bottomRight',
      });
    };
    const offs = [
      sock.on<FenceAlarm>('fence.alarm', (e) => onAlarm(e.data, true)),
      sock.on<FenceAlarm>('fence.alarmUpdated', (e) => onAlarm(e.data, false)),
    ];
    return () => offs.forEach((off) => off());
  }, [notification, t]);
}
