// Live map state beside the directory store: the live fence alarms (fence.alarm / fence.alarmUpdated, durable:
// replayed on sync, so each record is applied by id). Who talks is the voice store's (shared/voice/store talkers)
// and who has an open SOS the alarm store's (shared/alarms/store openSosByTerminal), which every console window keeps.
import { create } from 'zustand';
import type { FenceAlarm } from './api';

export interface MapLiveState {
  /** Live fence alarms, newest first (at most MAX_ALARMS). */
  fenceAlarms: FenceAlarm[];
}

export const MAX_ALARMS = 200;

export const useMapLive = create<MapLiveState>(() => ({ fenceAlarms: [] }));

/** Adds or replaces a fence alarm by id; returns whether it is new. */
export function applyFenceAlarm(s: MapLiveState, a: FenceAlarm): { patch: Partial<MapLiveState>; isNew: boolean } {
  const i = s.fenceAlarms.findIndex((x) => x.id === a.id);
  if (i >= 0) {
    const fenceAlarms = s.fenceAlarms.slice();
    fenceAlarms[i] = a;
    return { patch: { fenceAlarms }, isNew: false };
  }
  return { patch: { fenceAlarms: [a, ...s.fenceAlarms].slice(0, MAX_ALARMS) }, isNew: true };
}

/** Who talks now, from the voice store's talkers (account id → call id). */
export function currentTalkers(voiceTalkers: Record<string, string>): Set<string> {
  return new Set(Object.keys(voiceTalkers));
}
