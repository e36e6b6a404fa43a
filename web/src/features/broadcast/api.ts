// The broadcast service (docs/api.md "Broadcast", spec §7): its own {code: 200} envelope and its own token. The
// console signs in to it with spec §5's '{secret}' and its console session (it keeps no password), keeps the
// broadcast token for the tab, and on 401 (expired, revoked) signs in again and retries once; the server ensures
// the dispatcher's caster (spec §4). Failures reject with the server's code or '500' (spec §8). The transport is
// the console's one client (shared/http/createClient.ts) configured for this service.
import { ApiError, type Page, type Params } from '../../shared/http/client';
import { createClient } from '../../shared/http/createClient';
import { queryKeys } from '../../shared/queryKeys';
import { currentToken, useSession } from '../../shared/session';
import { customerOffsetMs } from '../../shared/time/zone';

export const BROADCAST_BASE = '/broadcast/v1';

export interface Org {
  id: number;
  parent_id: number;
  name: string;
  code: string;
  call_number: string;
  device_count: number;
}

export interface Playing {
  task_id: number;
  task_kind: number;
  caster_id: number;
  priority: number;
  file_id: number;
  file: string;
  position_ms: number;
  gap?: boolean;
  volume: number;
  paused?: boolean;
}

export interface Report {
  state: 'playing' | 'paused' | 'idle';
  task_id: number;
  file_id: number;
  position_ms: number;
  level: number;
  volume: number;
  /** server time of the report */
  at: number;
  /** no report for 5 s: what the speaker last said it plays is old */
  stale?: boolean;
}

export interface Device {
  id: number;
  org_id: number;
  name: string;
  code: string;
  online: 0 | 1;
  ao_volume: number;
  playing?: Playing | null;
  reported?: Report | null;
}

export interface MusicFile {
  id: number;
  group_id: number;
  original_name: string;
  name: string;
  length: number;
  size: number;
  url: string;
}

export type TaskState = 0 | 1 | 2;

export interface Task {
  id: number;
  caster_id: number;
  type: 0 | 1 | 2;
  name: string;
  plan_id: number;
  offline: 0 | 1;
  loop: number;
  volume: number;
  duration_type: 1 | 2 | 3;
  duration: number;
  interval_time: number;
  start_time?: string;
  weekdays: number[];
  choice_file_id?: number;
  file_ids: number[];
  device_ids: number[];
  state: TaskState;
  started_at: number;
  /** When its last run ended, and why: "finished" (played out) or "stopped" (by hand); absent while it plays. */
  ended_at?: number;
  end_reason?: 'finished' | 'stopped' | '';
  missed_count: number;
  /** The last start that passed while the server was down. */
  missed_at?: number;
  file_id?: number;
  position_ms: number;
  holding: number[];
}

export interface Plan {
  id: number;
  name: string;
  active: 0 | 1;
  task_count: number;
}

export interface Lost {
  device_id: number;
  task_id: number;
  by_task_id: number;
  by_caster_id: number;
  reason: 'priority' | 'newer';
}

export interface Action {
  task: Task;
  lost: Lost[];
}

/** broadcast.pageEnded: a live page stopped carrying this console's microphone without its release. */
export interface PageEnded {
  caster_id: number;
  task_id: number;
  /** replaced: another page took the microphone; media: the console's audio connection closed or failed */
  reason: 'replaced' | 'media';
}

/** The task fields the editor sends (POST/PATCH /v1/task). */
export interface TaskInput {
  name: string;
  type: 0 | 1;
  plan_id: number;
  offline: 0 | 1;
  loop: number;
  volume: number;
  duration_type: 1 | 2 | 3;
  duration?: number;
  interval_time: number;
  start_time?: string;
  weekdays?: number[];
  file_ids: number[];
  device_ids: number[];
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** spec §5: the broadcast login's password when the console has none. */
export const SECRET = '{secret}';

/** The broadcast token of this tab and the console session it was made from. */
let signedIn: { console: string | undefined; token: string } | undefined;
let signingIn: Promise<string> | undefined;

/** Forgets the broadcast token (the next call signs in again). */
export function forgetBroadcastToken(): void {
  signedIn = undefined;
}

/**
 * The broadcast service: code 200 is success, the tab's broadcast token in the `token` header, 401 (expired,
 * revoked) signs in again and retries once; no answer or no envelope is '500'.
 */
const broadcast = createClient({
  base: BROADCAST_BASE,
  okCode: '200',
  noEnvelope: '500',
  transportCode: '500',
  timeoutMs: 0,
  auth: () => broadcastToken(),
  reauth: {
    code: '401',
    renew: (stale) => {
      if (signedIn?.token === stale) signedIn = undefined; // expired or revoked: sign in again, once
      return broadcastToken();
    },
  },
});

/** The tab's broadcast token: POST /v1/login {username: msId, password: '{secret}'} with the console session. */
export async function broadcastToken(): Promise<string> {
  const console = currentToken();
  if (signedIn && signedIn.console === console) return signedIn.token;
  signingIn ??= (async () => {
    const session = useSession.getState().session;
    const username = session?.userInfo?.msId || session?.account || '';
    // with the console session's token, not a broadcast one (none without a session)
    const res = await broadcast.post<{ token: string }>('/login', { username, password: SECRET }, console ? { token: console } : { anonymous: true });
    signedIn = { console, token: res.token };
    return res.token;
  })().finally(() => {
    signingIn = undefined;
  });
  return signingIn;
}

/** Calls the broadcast service with the tab's broadcast token; query parameters for GET/DELETE, a JSON body otherwise. */
export function call<T>(method: Method, path: string, params?: Record<string, unknown>): Promise<T> {
  if (method === 'GET' || method === 'DELETE') return broadcast.request<T>(method, path, params as Params | undefined);
  return broadcast.request<T>(method, path, undefined, { body: params ?? {} });
}

export const broadcastKeys = queryKeys('broadcast', ['orgs', 'devices', 'files', 'tasks', 'plans', 'realTime']);

export const broadcastApi = {
  orgs: () => call<Page<Org>>('GET', '/org', { page: 1, limit: 1000 }),
  createOrg: (o: { parent_id: number; name: string; code: string; call_number: string; password?: string }) =>
    // spec §7: a root organisation is created under the /api prefix
    call<Org>('POST', o.parent_id ? '/org' : '/broadcast/api/v1/org', o),
  /** PATCH /v1/org/{id}: only the fields given change (no password: it stays). */
  updateOrg: (id: number, o: { parent_id?: number; name: string; code: string; call_number: string; password?: string }) =>
    call<Org>('PATCH', `/org/${id}`, o),
  deleteOrg: (id: number) => call<unknown>('DELETE', `/org/${id}`),
  devices: (orgId?: number) => call<Page<Device>>('GET', '/device', { org_id: orgId, page: 1, limit: 1000 }),
  createDevice: (d: { org_id: number; name: string; code: string }) => call<Device>('POST', '/device', d),
  updateDevice: (id: number, d: { org_id: number; name: string; code: string }) => call<Device>('PATCH', `/device/${id}`, d),
  deleteDevice: (id: number) => call<unknown>('DELETE', `/device/${id}`),
  volume: (id: number, v: number) => call<Device>('PATCH', `/device/${id}/volume`, { ao_volume: v }),
  batchVolume: (v: number, deviceIds: number[], groupId?: number) =>
    call<unknown>('POST', '/device/batch_volume', { ao_volume: v, device_ids: deviceIds, group_id: groupId }),
  files: () => call<Page<MusicFile>>('GET', '/file', { page: 1, limit: 1000 }),
  deleteFile: (id: number) => call<unknown>('DELETE', `/file/${id}`),
  tasks: () => call<Page<Task>>('GET', '/task'),
  createTask: (t: TaskInput) => call<Task>('POST', '/task', { ...t }),
  updateTask: (id: number, t: TaskInput) => call<Task>('PATCH', `/task/${id}`, { ...t }),
  deleteTask: (id: number) => call<unknown>('DELETE', `/task/${id}`),
  act: (id: number, verb: 'start' | 'stop' | 'pause' | 'resume') => call<Action>('GET', `/task/${id}/${verb}`),
  plans: () => call<Page<Plan>>('GET', '/plan', { page: 1, limit: 1000 }),
  createPlan: (name: string) => call<Plan>('POST', '/plan', { name }),
  planAct: (id: number, verb: 'start' | 'stop') => call<Plan>('GET', `/plan/${id}/${verb}`),
  realTime: () => call<Task>('GET', '/real_time_task'),
  setRealTime: (t: { file_ids: number[]; device_ids: number[]; volume: number }) => call<Task>('PATCH', '/real_time_task', { ...t }),
  realTimeStart: () => call<Action>('POST', '/real_time_task/start'),
  realTimeVerb: (v: 'stop' | 'pause' | 'next' | 'prev') => call<Action>('GET', `/real_time_task/${v}`),
  pageStart: (deviceIds: number[], orgIds: number[]) => call<Action>('POST', '/paging/start', { device_ids: deviceIds, org_ids: orgIds }),
  pageStop: () => call<unknown>('GET', '/paging/stop'),
  choose: (fileId: number) => call<Action>('PATCH', '/real_time_task/choice', { choice_file_id: fileId }),
};

/** Uploads a file to the library (multipart, with progress 0–100). */
export async function uploadMusic(file: File, groupId: number, onProgress?: (percent: number) => void): Promise<MusicFile> {
  const token = await broadcastToken();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    if (groupId) form.append('group_id', String(groupId));
    form.append('file', file, file.name);
    xhr.open('POST', `${BROADCAST_BASE}/upload`);
    xhr.setRequestHeader('token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      let env: unknown;
      try {
        env = JSON.parse(xhr.responseText);
      } catch {
        env = undefined;
      }
      try {
        const file = broadcast.unwrap<MusicFile | undefined>(env, xhr.status);
        if (file) resolve(file);
        else reject(new ApiError('500', 'no file in the answer'));
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => reject(new ApiError('500', 'network', undefined, true));
    xhr.send(form);
  });
}

/** m:ss of a length in ms. */
/**
 * The customer's zone as UTC±hh:mm: timed tasks start at their wall-clock time there (docs/api.md), which the console
 * now says beside every such time (issue 33: a dispatcher in another zone read them as their own).
 */
export function zoneName(offsetMs = customerOffsetMs()): string {
  if (offsetMs === 0) return 'UTC';
  const m = Math.round(Math.abs(offsetMs) / 60_000);
  return `UTC${offsetMs < 0 ? '−' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * A task's trace (issue 33: a timed task left none that it ran): its last run's start and how it ended, or that it
 * plays now; and its missed starts with the last of them. `at` formats an instant in the customer's zone.
 */
export function taskTrace(x: Task, at: (ms: number) => string): { lastRun?: { at: string; end: 'playing' | 'finished' | 'stopped' }; missed?: { count: number; last?: string } } {
  const lastRun = x.started_at
    ? { at: at(x.started_at), end: x.state !== 0 ? ('playing' as const) : x.end_reason === 'stopped' ? ('stopped' as const) : ('finished' as const) }
    : undefined;
  const missed = x.missed_count ? { count: x.missed_count, last: x.missed_at ? at(x.missed_at) : undefined } : undefined;
  return { lastRun, missed };
}

/**
 * Where a playing task is at `now`: its position as last read (at `readAt`) moved on by the time since, up to the
 * file's length (the server's next broadcast.task says when it moves to another file). A paused or idle task
 * stays where it was read. Issue 33: the real-time player showed the position of its last read until something
 * else changed.
 */
export function positionAt(x: Pick<Task, 'state' | 'position_ms'>, readAt: number, now: number, lengthMs?: number): number {
  if (x.state !== 1) return x.position_ms;
  const at = x.position_ms + Math.max(0, now - readAt);
  return lengthMs ? Math.min(at, lengthMs) : at;
}

export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
