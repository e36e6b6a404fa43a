// Camera recordings (docs/api.md "Cameras"): the list by camera and time range (spec §5), the files.
import { http } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';

export interface VideoRecord {
  id: number;
  cameraId: number;
  streamId: string;
  name: string;
  app: string;
  remark: string;
  startTime: number;
  /** 0 while the camera is being recorded. */
  endTime: number;
  duration: number;
  bytes: number;
  startedBy: string;
  url: string;
}

export interface RecordQuery {
  streams: string[];
  sTime: number;
  eTime: number;
  pageNo: number;
  pageSize: number;
}

export const RECORD_PAGE_SIZE = 20;

/** Camera recordings (records), recorded calls and monitorings (sessions), and the camera list. */
export const recordKeys = queryKeys('videorecords', ['records', 'sessions', 'cameras']);

export const videoRecordApi = {
  cameras: () => http.get<{ list: { streamId: string; name: string }[] }>('/ds/camera/list'),
  list: (q: RecordQuery) =>
    http.get<{ total: number; list: VideoRecord[] }>('/ds/camera/records', {
      streams: q.streams.length ? q.streams.join(',') : undefined,
      sTime: q.sTime,
      eTime: q.eTime,
      pageNo: q.pageNo,
      pageSize: q.pageSize,
    }),
};

/** The address that plays a recording in a <video> (ranged: the browser seeks) or downloads it. */
export function recordFileUrl(r: { url: string }, download = false): string {
  return download ? `${r.url}&download=1` : r.url;
}

/** h:mm:ss of a duration in ms. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

/** A recorded video call or video monitoring (docs/video.md §5): the terminal's camera and microphone. */
export interface SessionRecord {
  id: number;
  callId: string;
  kind: 'call' | 'monitor';
  msId: string;
  msName: string;
  byId: string;
  byName: string;
  codec: 'VP8' | 'H264';
  audio: boolean;
  startTime: number;
  durationMs: number;
  bytes: number;
  frames: number;
  dropped: number;
  /** video/webm (VP8) or video/mp4 (H.264). */
  type: string;
  url: string;
}

export interface SessionRecordQuery {
  msId?: string;
  sTime: number;
  eTime: number;
  pageNo: number;
  pageSize: number;
}

export const sessionRecordApi = {
  list: (q: SessionRecordQuery) =>
    http.get<{ total: number; list: SessionRecord[] }>('/ds/video/records', {
      msId: q.msId || undefined,
      sTime: q.sTime,
      eTime: q.eTime,
      pageNo: q.pageNo,
      pageSize: q.pageSize,
    }),
};

/** The size of a file, in kB or MB. */
export function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} kB`;
}
