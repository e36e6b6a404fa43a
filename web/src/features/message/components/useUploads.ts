// Files a dispatcher attached: each uploads at once through the file service with its own progress (0–100).
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCode, uploadFile } from '../api';
import type { FileInfo, FileKind } from '../model';
import { checkFileSize, FILES_LIMIT, kindForFile, type LimitKey } from '../validation';

export interface UploadItem {
  uid: string;
  name: string;
  size: number;
  percent: number;
  status: 'uploading' | 'done' | 'error';
  info?: FileInfo;
  code?: string;
}

interface Options {
  /** Upload kind; by default from the file's type. */
  kind?: FileKind;
  /** Which size limit applies; by default the kind's. */
  limit?: LimitKey;
  /** At most this many files (spec §9 "files limit 100"); one for a single-file field. */
  max?: number;
}

let uidSeq = 0;

export function useUploads(opts: Options = {}) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const count = useRef(0);
  count.current = items.length;
  const aborts = useRef(new Map<string, () => void>());
  const max = opts.max ?? FILES_LIMIT;

  useEffect(() => () => aborts.current.forEach((a) => a()), []);

  const patch = (uid: string, p: Partial<UploadItem>) => setItems((list) => list.map((x) => (x.uid === uid ? { ...x, ...p } : x)));

  /** Starts uploading; returns false (and uploads nothing) when the limit of files is reached. */
  const add = useCallback(
    (file: File): boolean => {
      if (max > 1 && count.current >= max) return false;
      count.current++;
      const uid = `u${++uidSeq}`;
      const kind = opts.kind ?? kindForFile(file);
      const sizeError = checkFileSize(file.size, opts.limit ?? kind);
      const item: UploadItem = { uid, name: file.name, size: file.size, percent: 0, status: sizeError ? 'error' : 'uploading', code: sizeError };
      setItems((list) => (max === 1 ? [item] : [...list, item]));
      if (max === 1) aborts.current.forEach((a) => a());
      if (sizeError) return true;
      const up = uploadFile(file, kind, (percent) => patch(uid, { percent }));
      aborts.current.set(uid, up.abort);
      up.promise
        .then((info) => patch(uid, { status: 'done', percent: 100, info }))
        .catch((e) => {
          const code = errorCode(e);
          if (code !== 'aborted') patch(uid, { status: 'error', code });
        })
        .finally(() => aborts.current.delete(uid));
      return true;
    },
    [opts.kind, opts.limit, max],
  );

  const remove = useCallback((uid: string) => {
    aborts.current.get(uid)?.();
    aborts.current.delete(uid);
    setItems((list) => list.filter((x) => x.uid !== uid));
  }, []);

  const clear = useCallback(() => {
    aborts.current.forEach((a) => a());
    aborts.current.clear();
    setItems([]);
  }, []);

  return {
    items,
    add,
    remove,
    clear,
    busy: items.some((x) => x.status === 'uploading'),
    failed: items.some((x) => x.status === 'error'),
    files: items.filter((x) => x.status === 'done' && x.info).map((x) => x.info!),
  };
}

/** Adds picked files until the limit (onFull tells so, once). */
export function addPicked(uploads: { add: (f: File) => boolean }, files: File[], onFull: () => void): void {
  for (const f of files) {
    if (!uploads.add(f)) {
      onFull();
      break;
    }
  }
}
