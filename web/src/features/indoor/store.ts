// The one store of live indoor positions: fed by `indoor.position` events and the last positions fetched at
// (re)connect. Read by the plan view and the terminal list.
import { create } from 'zustand';
import type { Position } from './api';

interface IndoorState {
  /** The latest position per terminal. */
  positions: Record<string, Position>;
}

export const useIndoor = create<IndoorState>(() => ({ positions: {} }));

/** A new position; an older one than what the store has is ignored. */
export function applyPosition(p: Position): void {
  const cur = useIndoor.getState().positions[p.msId];
  if (cur && cur.time > p.time) return;
  useIndoor.setState((s) => ({ positions: { ...s.positions, [p.msId]: p } }));
}

/** The last positions from the server; live ones newer than them are kept. */
export function setPositions(list: Position[]): void {
  const next: Record<string, Position> = {};
  const cur = useIndoor.getState().positions;
  for (const p of list) next[p.msId] = cur[p.msId] && cur[p.msId].time > p.time ? cur[p.msId] : p;
  for (const [id, p] of Object.entries(cur)) if (!next[id] && Date.now() - p.time < 60_000) next[id] = p;
  useIndoor.setState({ positions: next });
}
