// The lone-worker check: the server asks (lonework.check) and the worker answers "I'm fine" before the deadline.
import { create } from 'zustand';
import { phoneSocket } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export interface LoneWorkCheck {
  workId: string;
  /** The server's deadline (its clock, ms). */
  deadline: number;
  countdown: number;
  /** This device's clock minus the server's. */
  skewMs: number;
}

export const useLoneWork = create<{ check: LoneWorkCheck | null }>(() => ({ check: null }));

export function resetLoneWork(): void {
  useLoneWork.setState({ check: null });
}

/** Whole seconds left to answer, by this device's clock `now`. */
export function secondsLeft(c: LoneWorkCheck, now: number): number {
  return Math.max(0, Math.round((c.deadline - (now - c.skewMs)) / 1000));
}

export async function checkIn(): Promise<void> {
  const check = useLoneWork.getState().check;
  const sock = phoneSocket();
  if (!sock || !check) return;
  try {
    await sock.request('lonework.checkin', { workId: check.workId });
    resetLoneWork();
    notify('lonework.thanks');
  } catch (e) {
    notify('errors.generic', { code: codeOf(e) });
  }
}

export function attachLoneWork(s: TerminalSocket): void {
  s.handle('lonework.check', (d) => {
    const serverTime = Number(d.serverTime ?? Date.now());
    useLoneWork.setState({ check: { workId: String(d.workId), deadline: Number(d.deadline), countdown: Number(d.countdown), skewMs: Date.now() - serverTime } });
    navigator.vibrate?.([300, 100, 300]);
  });
  s.on('lonework.end', () => resetLoneWork());
}
