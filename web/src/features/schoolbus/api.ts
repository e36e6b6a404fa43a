// The school bus (docs/api.md "School bus"): students with their guardian, and the card punches bus terminals
// report over the socket. Shapes, REST calls, query keys and the live event map of the /school-bus screen.
import { createClient } from '../../shared/http/createClient';
import { ApiError, http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import { currentToken } from '../../shared/session';
import { schoolbusKeys } from '../../shared/schoolbus/OnBoard';
import type { LiveKeys } from '../../shared/socket/useLiveQueries';

/** A punch's kind when the student boarded; 2 is got off (docs/terminal-protocol.md "School bus"). */
export const BOARDED = 1;

export interface Punch {
  id: number;
  studentId: number;
  studentNum: string;
  studentName: string;
  busId: string;
  busName: string;
  kind: number;
  time: number;
  lat: number | null;
  lng: number | null;
}

export interface Student {
  id: number;
  studentNum: string;
  studentName: string;
  /** The file store's address of the photo (/filews/files/{id}), or "". */
  studentAvatar: string;
  /** YYYY-MM-DD, or "". */
  studentBirth: string;
  /** 0 not stated, 1 male, 2 female. */
  studentSex: number;
  guardianName: string;
  guardianPhone: string;
  createTime: number;
  /** The bus terminal the student is on now ("" when on none) and its name. */
  onBus: string;
  busName: string;
  lastPunch: Punch | null;
}

/** The fields add and update take, each a string on the wire as the server reads them. */
export const INPUT_FIELDS = ['studentNum', 'studentName', 'studentAvatar', 'studentBirth', 'studentSex', 'guardianName', 'guardianPhone'] as const;
export type StudentInput = Record<(typeof INPUT_FIELDS)[number], string>;

/** The server's limits (internal/schoolbus). */
export const MAX_NAME = 40;
export const MAX_NUM = 32;

export interface StudentQuery {
  keyword?: string;
  /** Only the students on this bus terminal now. */
  busId?: string;
  pageNo: number;
  pageSize: number;
}

export interface ChecklistQuery {
  studentId: number;
  sTime?: number;
  eTime?: number;
  pageNo: number;
  pageSize: number;
}

export const SCHOOLBUS_PATHS = {
  add: '/ds/schoolCar/add',
  update: '/ds/schoolCar/update',
  list: '/ds/schoolCar/list',
  checklist: '/ds/schoolCar/checklist',
  remove: '/ds/schoolCar/delete',
  upload: '/filews/upload/media',
} as const;

// The screen's lists live under the root of the terminal panel's on-bus list (shared/schoolbus), so one resync
// refreshes both.
export const studentKeys = queryKeys(schoolbusKeys.all[0], ['students', 'checklist']);

/** A punch moves a student onto or off a bus: the list, the open history and every bus's on-board list are stale. */
export const SCHOOLBUS_EVENTS: Record<string, LiveKeys> = {
  'bus.punched': [studentKeys.students.all, studentKeys.checklist.all, schoolbusKeys.onboard.all],
};

export const schoolbusApi = {
  list: (q: StudentQuery) => http.get<Page<Student>>(SCHOOLBUS_PATHS.list, { ...q, keyword: q.keyword || undefined, busId: q.busId || undefined }),
  add: (s: StudentInput) => http.post<Student>(SCHOOLBUS_PATHS.add, s),
  update: (id: number, s: StudentInput) => http.put<Student>(SCHOOLBUS_PATHS.update, { id, ...s }),
  remove: (id: number) => http.del<{ id: number }>(SCHOOLBUS_PATHS.remove, { id }),
  checklist: (q: ChecklistQuery) => http.get<Page<Punch>>(SCHOOLBUS_PATHS.checklist, { ...q }),
};

/** A student as the dialog edits it (a new one: every field empty, the sex not stated). */
export function inputOf(s: Student | null): StudentInput {
  return Object.fromEntries(INPUT_FIELDS.map((k) => [k, String(s?.[k] ?? (k === 'studentSex' ? 0 : ''))])) as StudentInput;
}

// The file service answers the /ds envelope; its upload is a form, which the JSON client does not send, so only
// the envelope is read by the kit's client.
const files = createClient({ base: '', okCode: '0' });

/** Uploads a photo as an image of the customer's file store; resolves to its address, what studentAvatar takes. */
export async function uploadAvatar(file: Blob & { name?: string }, send: typeof fetch = (...a) => fetch(...a)): Promise<string> {
  const token = currentToken();
  const form = new FormData();
  if (token) form.append('token', token);
  form.append('kind', 'image');
  form.append('file', file, file.name ?? 'avatar');
  let res: Response;
  try {
    res = await send(SCHOOLBUS_PATHS.upload, { method: 'POST', body: form, headers: token ? { token } : {}, credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError('network', e instanceof Error ? e.message : String(e), undefined, true);
  }
  const env: unknown = await res.json().catch(() => undefined);
  return files.unwrap<{ url: string }>(env, res.status).url;
}
