// Cameras and their streams (docs/api.md "Cameras"): shapes, REST calls, query keys.
import { wallNow } from '../../shared/time/zone';
import { http } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type { LiveKeys } from '../../shared/socket/useLiveQueries';

/** What a stream is doing (the server's camera.state): idle (not pulled), connecting, playing, failed. */
export type StreamState = 'idle' | 'connecting' | 'playing' | 'failed';
/** Whether a camera the server does not pull (idle) answers; absent while pulled or not asked yet. */
export type Reach = 'online' | 'offline';

export interface Camera {
  id: number;
  streamId: string;
  streamUrl: string;
  /** RTSP transport: 0 TCP, 1 UDP. */
  protocol: 0 | 1;
  name: string;
  app: string;
  createdAt: number;
  state: StreamState;
  online: boolean;
  recording: boolean;
  reach?: Reach;
  /** Why the last pull failed (state failed): the coded reason and its i18n key. */
  code?: string;
  key?: string;
}

export interface CameraInput {
  id?: number;
  streamId: string;
  streamUrl: string;
  protocol: 0 | 1;
  name: string;
}

export interface StateEvent {
  streamId: string;
  state: StreamState;
  code?: string;
  key?: string;
  reach?: Reach;
}

export interface Snapshot {
  stream: string;
  at: number;
  name: string;
  type: string;
  data: string;
  /** The media-cloud item the picture is kept as; absent when it could not be kept (storage full). */
  item?: { id: string };
}

export interface Recording {
  id: number;
  streamId: string;
  startTime: number;
  endTime: number;
  url: string;
}

export const CAMERA_PATHS = {
  add: '/ds/camera/add',
  update: '/ds/camera/update',
  list: '/ds/camera/list',
  remove: '/ds/camera/delete',
  play: '/ds/camera/play',
  proxy: '/ds/apiZlmk/proxy',
  isOnline: '/ds/apiZlmk/isOnline',
  snap: '/ds/apiZlmk/snap',
  record: '/ds/apiZlmk/record',
} as const;

export const cameraKeys = queryKeys('cameras', ['list']);

/** What a camera event makes stale: the list (a camera added, changed or removed; a recording started or ended).
 * camera.state goes to the streams store, not to a query. */
export const CAMERA_EVENTS: Record<string, LiveKeys> = {
  'camera.changed': [cameraKeys.list.all],
  'camera.record': [cameraKeys.list.all],
};

/** Characters a file name cannot hold on one of the desktops the console runs on (a camera name has no controls). */
const NOT_IN_FILE_NAMES = /[\\/:*?"<>|]+/g;

/**
 * The file a camera's snapshot is saved as: the camera's name and the customer's wall-clock time to the second
 * (issue 33: the server's default, cam2-<epoch ms>.jpg, said neither which camera nor when to whoever opened it).
 */
export function snapshotName(cameraName: string, at = wallNow()): string {
  const name = cameraName.replace(NOT_IN_FILE_NAMES, '-').replace(/^[-\s]+|[-\s]+$/g, '') || 'camera';
  return `${name}-${at.format('YYYYMMDD-HHmmss')}.jpg`;
}

export const cameraApi = {
  list: () => http.get<{ total: number; list: Camera[]; tool: boolean }>(CAMERA_PATHS.list),
  add: (c: CameraInput) => http.post<Camera>(CAMERA_PATHS.add, c),
  update: (c: CameraInput) => http.put<Camera>(CAMERA_PATHS.update, c),
  remove: (id: number) => http.del<{ id: number }>(CAMERA_PATHS.remove, { id }),
  play: (stream: string, sdp: string) => http.post<{ sdp: string; state: StreamState; code?: string; key?: string }>(CAMERA_PATHS.play, { stream, sdp }),
  /** A current picture; path is the file name it is offered under (snapshotName). */
  snap: (stream: string, path: string) => http.get<Snapshot>(CAMERA_PATHS.snap, { stream, path }),
  startRecord: (stream: string, remark = '') => http.get<Recording>(CAMERA_PATHS.record, { type: 0, stream, app: 'monitor', remark }),
  stopRecord: (stream: string) => http.get<Recording>(CAMERA_PATHS.record, { type: 1, stream }),
};

/** Tile layouts (1, 4, 9, 16 tiles). */
export const LAYOUTS = [1, 4, 9, 16] as const;
export type Layout = (typeof LAYOUTS)[number];
