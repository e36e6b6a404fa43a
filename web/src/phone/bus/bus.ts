// The school bus (docs/terminal-protocol.md "School bus"): this phone as the bus's card reader. Each student card
// read — typed, or read by Web NFC where the browser has it — is a punch (boarded or alighted, the time, where the
// bus is). Punches wait in this device's storage until the server has answered each one, so none is lost to a
// dead zone; a repeat after a lost answer is stored once by the server.
import { create } from 'zustand';
import { local, readJSON, writeJSON } from '../../shared/utils/storage';
import { phoneSocket, useSession } from '../session/store';
import { codeOf } from '../socket';
import { notify } from '../ui/notice';

export type PunchKind = 1 | 2; // 1 boarded, 2 alighted

export interface Punch {
  studentNum: string;
  kind: PunchKind;
  time: number;
  lat?: number;
  lng?: number;
}

export interface PunchReply {
  punch: { studentName: string; kind: number };
  duplicate: boolean;
}

export const usePunches = create<{ queue: Punch[]; last?: { name: string; kind: number } }>(() => ({ queue: [] }));

const key = (uid: string) => `tenfour.app.punches.${uid}`;

function keep(queue: Punch[]) {
  const uid = useSession.getState().uid;
  if (uid) writeJSON(local(), key(uid), queue);
  usePunches.setState({ queue });
}

/** The punches kept for this account (at sign-in). */
export function loadPunches(uid: string): void {
  usePunches.setState({ queue: readJSON<Punch[]>(local(), key(uid)) ?? [], last: undefined });
}

export function resetPunches(): void {
  usePunches.setState({ queue: [], last: undefined });
}

/** Refusals a retry cannot fix: the card is unknown ("404") or the punch malformed ("400"). */
const FINAL = new Set(['404', '400']);

let flushing = false;

/** A punch is its card, kind and time (the server stores it once on these, with this bus). */
const samePunch = (a: Punch, b: Punch) => a.studentNum === b.studentNum && a.kind === b.kind && a.time === b.time;

/** Sends the kept punches, oldest first; each leaves the queue once answered. Stops at the first that fails to go. */
export async function flushPunches(): Promise<void> {
  const sock = phoneSocket();
  if (!sock || flushing) return;
  flushing = true;
  try {
    for (const p of [...usePunches.getState().queue]) {
      try {
        const r = await sock.request<PunchReply>('bus.punch', { ...p });
        usePunches.setState({ last: { name: r.punch.studentName, kind: r.punch.kind } });
      } catch (e) {
        const code = codeOf(e);
        if (!FINAL.has(code)) return; // offline or busy: kept for the next try
        notify(code === '404' ? 'bus.unknown' : 'errors.generic', { code, card: p.studentNum });
      }
      keep(usePunches.getState().queue.filter((q) => !samePunch(q, p)));
    }
  } finally {
    flushing = false;
  }
}

/** A card read now: kept first, then sent. */
export async function punch(studentNum: string, kind: PunchKind, pos?: { lat: number; lng: number }): Promise<void> {
  const num = studentNum.trim();
  if (!num) return;
  keep([...usePunches.getState().queue, { studentNum: num, kind, time: Date.now(), ...(pos ?? {}) }]);
  await flushPunches();
}
