// The global alarm interrupt, mounted once per window (the shell, and the frame of child windows). It keeps the
// alarm state live, rings and notifies; the dialog itself is a separate chunk, fetched as soon as the browser is idle
// after the first paint and then rendered directly. Not through React.lazy: a lazy component suspends on its first
// render even when its code is loaded, and React holds a suspended boundary back ~300 ms — on an alarm's way.
import { useEffect, useState, type ComponentType } from 'react';
import { useSession } from '../../../shared/session';
import { isDsKeyEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { startAlarmController } from '../controller';
import { startAlarmWatch, useAlarms } from '../../../shared/alarms/store';

type Dialog = ComponentType<{ child: boolean }>;

let loaded: Dialog | undefined;
let loading: Promise<Dialog> | undefined;
const loadDialog = (): Promise<Dialog> =>
  (loading ??= import('./AlarmModal').then(
    (m) => (loaded = m.default),
    (e: unknown) => {
      loading = undefined; // a failed fetch is tried again
      throw e;
    },
  ));

export function AlarmInterrupt({ child = false }: { child?: boolean }) {
  const token = useSession((s) => s.session?.token);
  const gate = useGateContext();
  const sos = isDsKeyEnabled('sosManage', gate);
  const lonework = isDsKeyEnabled('workAlone', gate);
  const active = !!token && (sos || lonework);
  const open = useAlarms((s) => s.queue.length > 0);
  const [AlarmModal, setAlarmModal] = useState<Dialog | undefined>(() => loaded);

  useEffect(() => {
    if (!active) return;
    const stopWatch = startAlarmWatch({ sos, lonework });
    const stopController = startAlarmController(!child);
    return () => {
      stopController();
      stopWatch();
    };
  }, [active, sos, lonework, child]);

  // The dialog's code: when idle, at once when an alarm is open, again every 2 s while a fetch fails.
  useEffect(() => {
    if (!active || AlarmModal) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const fetchNow = () =>
      void loadDialog().then(
        (d) => live && setAlarmModal(() => d),
        () => {
          if (live && open) retry = setTimeout(fetchNow, 2000);
        },
      );
    let idle: number | undefined;
    if (open) fetchNow();
    else if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(fetchNow, { timeout: 1000 });
    else retry = setTimeout(fetchNow, 300);
    return () => {
      live = false;
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(retry);
    };
  }, [active, open, AlarmModal]);

  if (!active || !open || !AlarmModal) return null;
  return <AlarmModal child={child} />;
}
