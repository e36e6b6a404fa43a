// The live state of each camera stream (camera.state events), the one store of this feature.
import { create } from 'zustand';
import type { StateEvent, StreamState } from './api';

export interface StreamStatus {
  state: StreamState;
  code?: string;
  key?: string;
}

interface StreamStore {
  streams: Record<string, StreamStatus>;
  set(e: StateEvent): void;
  seed(list: (StreamStatus & { streamId: string })[]): void;
}

export const useStreams = create<StreamStore>((set) => ({
  streams: {},
  set: (e) => set((s) => ({ streams: { ...s.streams, [e.streamId]: { state: e.state, code: e.code, key: e.key } } })),
  seed: (list) =>
    set(() => ({ streams: Object.fromEntries(list.map((c) => [c.streamId, { state: c.state, code: c.code, key: c.key }])) })),
}));

/** Why a tile has no picture, as an i18n key of the surveillance namespace (undefined: it may have one). */
export function noPictureReason(status: StreamStatus | undefined, playing: boolean, tool: boolean): string | undefined {
  if (!tool) return 'reason.noTool';
  if (!status) return 'reason.connecting';
  switch (status.state) {
    case 'failed':
      return status.key ? `reason.${status.key.replace(/^camera\./, '')}` : 'reason.offline';
    case 'connecting':
    case 'idle':
      return 'reason.connecting';
    case 'playing':
      return playing ? undefined : 'reason.waiting';
  }
  return undefined;
}

/** Places a camera on a grid of n tiles: the chosen tile, else the first empty one, else the last. */
export function place(tiles: (string | null)[], streamId: string, at?: number): (string | null)[] {
  const out = tiles.slice();
  const i = at ?? (out.indexOf(null) >= 0 ? out.indexOf(null) : out.length - 1);
  const old = out.indexOf(streamId);
  if (old >= 0 && old !== i) out[old] = out[i]; // swap: a camera shows on one tile at a time
  out[i] = streamId;
  return out;
}

/** Resizes the grid to n tiles, keeping the cameras that fit. */
export function resize(tiles: (string | null)[], n: number): (string | null)[] {
  return Array.from({ length: n }, (_, i) => tiles[i] ?? null);
}
