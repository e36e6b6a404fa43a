// Typed clients of the message, tone and file calls (docs/messages.md): REST through the envelope client, uploads
// through XMLHttpRequest for their progress, and the socket requests sms.send and tone.send.
import { ApiError, http } from '../../shared/http/client';
import type { Page } from '../../shared/http/createClient';
import { queryKeys } from '../../shared/queryKeys';
import { SocketError } from '../../shared/socket/client';
import { live } from '../../shared/socket/live';
import { currentToken } from '../../shared/session';
import type { FileInfo, FileKind, Message, DeliveryState } from './model';
import type { UnreadAnswer } from './unread';
import { SMS_SEND_TIMEOUT_MS, type Target } from './validation';

export const MESSAGE_PATHS = {
  findSms: '/ds/sms/findSms',
  updateSms: '/ds/sms/updateSms',
  unread: '/ds/sms/unread',
  upload: '/filews/upload/media',
  toneAdd: '/ds/tone/add',
  toneUpdate: '/ds/tone/update',
  toneList: '/ds/tone/list',
  toneDelete: '/ds/tone/delete',
} as const;

export interface FindSmsQuery {
  type?: '0' | '1' | '2';
  dstId?: string;
  grpId?: string;
  msId?: string;
  stime: number;
  etime: number;
  unread?: 1;
  order?: 'asc' | 'desc';
  pageNo?: number;
  pageSize?: number;
}

export type ReadSelector = { ids: string[] } | { msId: string } | { gid: string } | { all: 1 };

export interface Tone {
  id: string;
  name: string;
  fileId?: string;
  fileUrl: string;
  audioUrl?: string;
  fileName?: string;
  fileSize?: number;
  fileMime?: string;
  iconId?: string;
  iconUrl: string;
  sort: number;
  createBy?: string;
  createTime?: number;
  updateTime?: number;
}

export interface ToneInput {
  name: string;
  fileUrl: string;
  iconUrl: string;
  sort: number;
}

export const messageApi = {
  findSms: (q: FindSmsQuery) => http.get<Page<Message>>(MESSAGE_PATHS.findSms, { ...q }),
  markRead: (sel: ReadSelector) => http.put<{ updated: number; ids: string[] }>(MESSAGE_PATHS.updateSms, { ...sel, status: 1 }),
  unread: () => http.get<UnreadAnswer>(MESSAGE_PATHS.unread),
  tones: (createBy?: string) => http.get<Page<Tone>>(MESSAGE_PATHS.toneList, createBy ? { createBy } : undefined),
  addTone: (t: ToneInput) => http.post<Tone>(MESSAGE_PATHS.toneAdd, t),
  updateTone: (t: Partial<ToneInput> & { id: string }) => http.put<Tone>(MESSAGE_PATHS.toneUpdate, t),
  deleteTone: (id: string) => http.del<{ id: string }>(MESSAGE_PATHS.toneDelete, { id }),
};

/** tones(mine): the tone library (mine: only the tones this dispatcher created). */
export const messageKeys = queryKeys('message', ['tones', 'find']);

/** An upload in progress: its promise and a way to abort it. */
export interface Upload {
  promise: Promise<FileInfo>;
  abort: () => void;
}

/**
 * `POST /filews/upload/media` with the token part before the file (docs/messages.md §5). Progress comes from the
 * browser's upload events (0–100). Errors are ApiErrors with the server's code ("70", "71", "72", "105"…),
 * 'network' or 'aborted'.
 */
export function uploadFile(file: Blob & { name?: string }, kind: FileKind | undefined, onProgress?: (percent: number) => void): Upload {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<FileInfo>((resolve, reject) => {
    const form = new FormData();
    const token = currentToken();
    if (token) form.append('token', token);
    if (kind) form.append('kind', kind);
    form.append('file', file, file.name ?? 'file');
    xhr.open('POST', MESSAGE_PATHS.upload);
    if (token) xhr.setRequestHeader('token', token);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      let env: { code?: string | number; msg?: string; key?: string; result?: FileInfo } | undefined;
      try {
        env = JSON.parse(xhr.responseText) as typeof env;
      } catch {
        env = undefined;
      }
      if (!env || env.code === undefined) return reject(new ApiError(xhr.status === 413 ? '71' : 'network', `HTTP ${xhr.status}`, undefined, true));
      if (String(env.code) !== '0' || !env.result) return reject(new ApiError(String(env.code), env.msg ?? '', env.key));
      onProgress?.(100);
      resolve(env.result);
    };
    xhr.onerror = () => reject(new ApiError('network', 'upload failed', undefined, true));
    xhr.onabort = () => reject(new ApiError('aborted', 'upload aborted', undefined, true));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

export interface SendReply {
  id: string;
  recipients: number;
  online: number;
  delivered: number;
  state: DeliveryState;
}

/** The console has no logged-in socket: 'no socket' (spec §8), nothing reaches the server. */
function socketOrFail() {
  const sock = live();
  if (sock.status !== 'online') throw new SocketError('no socket', 'no socket');
  return sock;
}

/** `sms.send` to one terminal or group, answered within the spec's 5 s. */
export async function sendSms(target: Target, content: string, fileId?: string): Promise<SendReply> {
  const sock = socketOrFail();
  return sock.request<SendReply>('sms.send', { ...target, content, ...(fileId ? { fileId } : {}) }, SMS_SEND_TIMEOUT_MS);
}

export interface ToneSendReply {
  toneId: string;
  recipients: number;
  online: number;
  delivered: number;
  failed: string[];
  state: DeliveryState;
}

/** `tone.send` to terminals and/or a group; the reply comes after the acknowledgements (4.5 s at most). */
export async function sendTone(toneId: string, msIds: string[], gid?: string): Promise<ToneSendReply> {
  const sock = socketOrFail();
  return sock.request<ToneSendReply>('tone.send', { toneId, ...(msIds.length ? { msIds } : {}), ...(gid ? { gid } : {}) }, 8_000);
}

/** The code of a failed call (REST, upload or socket). */

export { errorCode } from '../../shared/errors';
