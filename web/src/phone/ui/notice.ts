// The toast of the phone app: the last notice any part raised (a new message, a remote group switch, a closed SOS,
// a refused request). One store; every part calls notify().
import { create } from 'zustand';

export interface Notice {
  key: string;
  vars?: Record<string, string | number>;
  at: number;
}

export const useNotice = create<{ notice?: Notice }>(() => ({}));

export function notify(key: string, vars?: Record<string, string | number>): void {
  useNotice.setState({ notice: { key, vars, at: Date.now() } });
}

/** A notice is shown for 5 s. */
export const NOTICE_MS = 5000;

export function noticeShown(n: Notice | undefined, now: number): n is Notice {
  return !!n && now - n.at < NOTICE_MS;
}
