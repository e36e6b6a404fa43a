// The lone-worker check: the server asks (lonework.check) and the worker answers "I'm fine" before the deadline.
// The countdown runs on this device's clock from the time left the server sent (its deadline minus its clock), so a
// device whose clock is off still counts the right number of seconds. When it runs out the server raises a
// "forgot to reply" alarm (docs/terminal-protocol.md "Why an alarm is raised"): the prompt says so.
import { create } from 'zustand';
import { phoneSocket } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export interface LoneWorkCheck {
  workId: string;
  /** The deadline on this device's clock (ms). */
  dueAt: number;
}

export const useLoneWork = create<{ check: LoneWorkCheck | null }>(() => ({ check: null }));

export function resetLoneWork(): void {
  useLoneWork.setState({ check: null });
}

/** Whole seconds left to answer at this device's time `now` (rounded up: 0 only once the deadline has passed). */
export function secondsLeft(c: LoneWorkCheck, now: number): number {
  return Math.max(0, Math.ceil((c.dueAt - now) / 1000));
}

/** The deadline has passed: the server has raised the alarm. */
export function overdue(c: LoneWorkCheck, now: number): boolean {
  return now >= c.dueAt;
}

/** The time left the server gave, in ms: its deadline minus its clock, else the countdown it sent. */
export function timeLeftMs(d: Record<string, unknown>): number {
  const deadline = Number(d.deadline);
  const serverTime = Number(d.serverTime);
  if (Number.isFinite(deadline) && deadline > 0 && Number.isFinite(serverTime) && serverTime > 0) return Math.max(0, deadline - serverTime);
  return Math.max(0, Number(d.countdown) || 0) * 1000;
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
    useLoneWork.setState({ check: { workId: String(d.workId), dueAt: Date.now() + timeLeftMs(d) } });
    navigator.vibrate?.([300, 100, 300]);
  });
  s.on('lonework.end', () => resetLoneWork());
}
