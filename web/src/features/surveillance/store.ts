// The live state of each camera stream (camera.state events), the one store of this feature.
import { create } from 'zustand';
import { keyOf } from '../../shared/errorText';
import type { Reach, StateEvent, StreamState } from './api';

export interface StreamStatus {
  state: StreamState;
  code?: string;
  key?: string;
  reach?: Reach;
}

interface StreamStore {
  streams: Record<string, StreamStatus>;
  set(e: StateEvent): void;
  seed(list: (StreamStatus & { streamId: string })[]): void;
}

export const useStreams = create<StreamStore>((set) => ({
  streams: {},
  set: (e) => set((s) => ({ streams: { ...s.streams, [e.streamId]: statusOf(e) } })),
  seed: (list) => set(() => ({ streams: Object.fromEntries(list.map((c) => [c.streamId, statusOf(c)])) })),
}));

function statusOf(e: StreamStatus): StreamStatus {
  return { state: e.state, code: e.code, key: e.key, reach: e.reach };
}

/** A camera's dot in the tree: streaming (pulled, media arriving), online or offline (not pulled: whether it
 * answers, asked by the server), connecting, failed, or unknown (not asked yet); and its i18n key (dot.*). */
export function dotOf(status: StreamStatus | undefined): { badge: 'success' | 'processing' | 'error' | 'warning' | 'default'; key: string } {
  switch (status?.state) {
    case 'playing':
      return { badge: 'processing', key: 'dot.streaming' };
    case 'connecting':
      return { badge: 'warning', key: 'dot.connecting' };
    case 'failed':
      return { badge: 'error', key: 'dot.failed' };
  }
  if (status?.reach === 'online') return { badge: 'success', key: 'dot.online' };
  if (status?.reach === 'offline') return { badge: 'error', key: 'dot.offline' };
  return { badge: 'default', key: 'dot.unknown' };
}

/** Why a tile has no picture, as an i18n key of the surveillance namespace — a failed pull's reason is its server
 * key's sentence (keyOf) — or undefined: it may have one. */
export function noPictureReason(status: StreamStatus | undefined, playing: boolean, tool: boolean): string | undefined {
  if (!tool) return 'errors.noTool';
  if (!status) return 'reason.connecting';
  switch (status.state) {
    case 'failed':
      return status.key ? keyOf(status.key, ['surveillance']) : 'errors.offline';
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

/** What a dragged camera carries (its stream id) and what a dragged terminal carries (its msId). */
export const DRAG_TYPE = 'application/x-tenfour-camera';
export const TERMINAL_DRAG_TYPE = 'application/x-tenfour-terminal';

/** A tile shows a camera (its stream id) or a monitored terminal ("term:" and its msId). */
const TERMINAL_PREFIX = 'term:';
export const terminalTile = (msId: string) => TERMINAL_PREFIX + msId;
export function tileTerminal(id: string | null | undefined): string | undefined {
  return id?.startsWith(TERMINAL_PREFIX) ? id.slice(TERMINAL_PREFIX.length) : undefined;
}

/** Whether a drag may be dropped on a tile (a camera or a terminal). */
export function acceptsDrop(types: readonly string[]): boolean {
  return types.includes(DRAG_TYPE) || types.includes(TERMINAL_DRAG_TYPE);
}

/**
 * What a drop puts on a tile: a camera's stream id, or a terminal's tile id when the terminal can be monitored
 * (canMonitor: its type has a camera); undefined for anything else.
 */
export function dropped(get: (type: string) => string, canMonitor: (msId: string) => boolean): string | undefined {
  const stream = get(DRAG_TYPE).trim();
  if (stream) return stream;
  const msId = get(TERMINAL_DRAG_TYPE).trim();
  return msId && canMonitor(msId) ? terminalTile(msId) : undefined;
}

/** A tile's monitoring session as the shared video store has it. */
export interface TileSession {
  view: { state: string; status: number };
  refused?: string;
}

/**
 * Why a terminal's tile has no picture, as an i18n key of the surveillance namespace (undefined: it shows one): the
 * camera tiles' reasons where they mean the same (offline, stream not found, busy), and the monitoring's own.
 */
export function monitorReason(s: TileSession | undefined, playing: boolean): string | undefined {
  if (!s) return 'reason.connecting';
  if (s.view.state !== 'ended') {
    if (s.view.state === 'connected') return playing ? undefined : 'reason.waiting';
    return 'reason.connecting';
  }
  switch (s.refused ?? String(s.view.status)) {
    case '101':
      return 'reason.terminalOffline';
    case '502':
      return 'errors.streamNotFound';
    case '201':
    case '486':
      return 'errors.busy';
    case '606':
      return 'reason.terminalNotSupported';
    case '406':
      return 'reason.maxMonitors';
    case '403':
      return 'reason.alreadyMonitoring';
    case '408':
      return 'reason.noAnswer';
    case '404':
      return 'reason.unknownTerminal';
    case '200':
      return 'reason.stopped';
  }
  return 'reason.failed';
}
