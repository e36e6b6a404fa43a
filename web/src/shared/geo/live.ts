// Live map state beside the directory store: who is talking (floor.state), who has an open SOS (sos.alarm /
// sos.updated, loaded with findSos?open=1 and again after a reconnect) and the live fence alarms (fence.alarm /
// fence.alarmUpdated, durable: replayed on sync, so each record is applied by id).
import { create } from 'zustand';
import type { FenceAlarm } from './api';
import type { SosAlarm } from '../alarms/sos';

export interface MapLiveState {
  /** callId → msId of its talker. */
  talkers: Record<string, string>;
  /** msId → open SOS alarm (state 0 or 1). */
  sos: Record<string, SosAlarm>;
  /** Live fence alarms, newest first (at most MAX_ALARMS). */
  fenceAlarms: FenceAlarm[];
  /** Bumped on any change the terminal layer draws (talkers, sos). */
  version: number;
}

export const MAX_ALARMS = 200;

export const useMapLive = create<MapLiveState>(() => ({ talkers: {}, sos: {}, fenceAlarms: [], version: 0 }));

export interface FloorState {
  callId: string;
  talker: { msId: string } | null;
}

export function applyFloor(s: MapLiveState, f: FloorState): Partial<MapLiveState> | null {
  const prev = s.talkers[f.callId];
  const next = f.talker?.msId;
  if (prev === next) return null;
  const talkers = { ...s.talkers };
  if (next) talkers[f.callId] = next;
  else delete talkers[f.callId];
  return { talkers, version: s.version + 1 };
}

export function applySos(s: MapLiveState, a: SosAlarm): Partial<MapLiveState> | null {
  const cur = s.sos[a.msId];
  const open = a.state < 2;
  if (!open && (!cur || cur.id !== a.id)) return null;
  const sos = { ...s.sos };
  if (open) sos[a.msId] = a;
  else delete sos[a.msId];
  return { sos, version: s.version + 1 };
}

export function loadSos(s: MapLiveState, list: SosAlarm[]): Partial<MapLiveState> {
  const sos: Record<string, SosAlarm> = {};
  for (const a of list) if (a.state < 2 && !sos[a.msId]) sos[a.msId] = a;
  return { sos, version: s.version + 1 };
}

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

export function talkingSet(s: MapLiveState): Set<string> {
  return new Set(Object.values(s.talkers));
}

/**
 * Who talks now: the map's own floor.state tracking joined with the voice engine's view (which also knows who was
 * already talking when this window opened).
 */
export function currentTalkers(voiceTalkers: Record<string, string>): Set<string> {
  const s = talkingSet(useMapLive.getState());
  for (const id in voiceTalkers) s.add(id);
  return s;
}
