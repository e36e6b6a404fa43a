// The global alarm interrupt, mounted once per window (the shell, and the frame of child windows). It keeps the
// alarm state live, rings and notifies; the dialog itself is a lazy chunk, preloaded as soon as the browser is idle
// after the first paint: an alarm in the first seconds after sign-in must not wait for its dialog's code.
import { lazy, Suspense, useEffect } from 'react';
import { useSession } from '../../../shared/session';
import { isDsKeyEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { startAlarmController } from '../controller';
import { startAlarmWatch, useAlarms } from '../../../shared/alarms/store';

const loadModal = () => import('./AlarmModal');
const AlarmModal = lazy(loadModal);

export function AlarmInterrupt({ child = false }: { child?: boolean }) {
  const token = useSession((s) => s.session?.token);
  const gate = useGateContext();
  const sos = isDsKeyEnabled('sosManage', gate);
  const lonework = isDsKeyEnabled('workAlone', gate);
  const active = !!token && (sos || lonework);
  const open = useAlarms((s) => s.queue.length > 0);

  useEffect(() => {
    if (!active) return;
    const stopWatch = startAlarmWatch({ sos, lonework });
    const stopController = startAlarmController(!child);
    const preload = () => void loadModal().catch(() => {});
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(preload, { timeout: 1000 }) : undefined;
    const timer = idle === undefined ? setTimeout(preload, 300) : undefined;
    return () => {
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(timer);
      stopController();
      stopWatch();
    };
  }, [active, sos, lonework, child]);

  if (!active || !open) return null;
  return (
    <Suspense fallback={null}>
      <AlarmModal child={child} />
    </Suspense>
  );
}
