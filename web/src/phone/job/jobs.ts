// Job tickets (docs/terminal-protocol.md "Job tickets"): the dispatcher's tasks for this terminal. The server
// delivers each (job.deliver, acknowledged, again after a login until acknowledged); the worker accepts or
// rejects it with a reason, starts and completes it. The server is the truth: job.list after every login.
import { create } from 'zustand';
import type { TerminalView } from '../../shared/wire/job';
import { phoneSocket } from '../session/store';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

/** Ticket states (spec §4). */
export const JobState = { unsettled: 0, accepted: 1, rejected: 2, working: 3, over: 4 } as const;
export type JobStateValue = (typeof JobState)[keyof typeof JobState];
export type JobAction = 'accept' | 'reject' | 'start' | 'complete';

/** A ticket as this terminal sees it (job.deliver, job.list): generated from internal/job/model.go (make wire). */
export interface Ticket extends Omit<TerminalView, 'state'> {
  state: JobStateValue;
}

export const useJobs = create<{ tickets: Ticket[]; unseen: number }>(() => ({ tickets: [], unseen: 0 }));

/** What the worker may do in a state: the server's state machine, so the app never offers a refused step. */
export function actionsFor(state: number): JobAction[] {
  switch (state) {
    case JobState.unsettled:
      return ['accept', 'reject'];
    case JobState.accepted:
      return ['start', 'reject'];
    case JobState.working:
      return ['complete'];
    default:
      return [];
  }
}

export const isOpen = (s: number) => s === JobState.unsettled || s === JobState.accepted || s === JobState.working;

function normalize(d: Record<string, unknown>): Ticket {
  const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);
  const coord = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  return {
    jobId: String(d.jobId),
    job: String(d.job ?? ''),
    address: String(d.address ?? ''),
    lat: coord(d.lat),
    lng: coord(d.lng),
    creator: String(d.creator ?? ''),
    creatorName: String(d.creatorName ?? ''),
    sendTime: num(d.sendTime),
    state: num(d.state) as JobStateValue,
    reason: String(d.reason ?? ''),
    remark: String(d.remark ?? ''),
    acceptTime: num(d.acceptTime),
    startTime: num(d.startTime),
    endTime: num(d.endTime),
  };
}

/** Open tickets first (oldest first), then the settled ones (newest first). */
export function sorted(list: Ticket[]): Ticket[] {
  return [...list].sort((a, b) => {
    const oa = isOpen(a.state), ob = isOpen(b.state);
    if (oa !== ob) return oa ? -1 : 1;
    return oa ? a.sendTime - b.sendTime : b.sendTime - a.sendTime;
  });
}

/** Adds or replaces a ticket; true when it is new to this device. */
export function upsert(t: Ticket): boolean {
  const { tickets } = useJobs.getState();
  const known = tickets.some((x) => x.jobId === t.jobId);
  useJobs.setState({ tickets: sorted([...tickets.filter((x) => x.jobId !== t.jobId), t]) });
  return !known;
}

export function removeTicket(jobId: string): void {
  useJobs.setState((s) => ({ tickets: s.tickets.filter((x) => x.jobId !== jobId) }));
}

export function resetJobs(): void {
  useJobs.setState({ tickets: [], unseen: 0 });
}

export function markSeen(): void {
  useJobs.setState({ unseen: 0 });
}

/** The server's list of this terminal's tickets (after every login). */
export async function loadJobs(): Promise<void> {
  const sock = phoneSocket();
  if (!sock) return;
  try {
    const r = await sock.request<{ list: Record<string, unknown>[] }>('job.list', {});
    useJobs.setState({ tickets: sorted((r.list ?? []).map(normalize)) });
  } catch {
    // offline again: the next login loads it
  }
}

/** The worker's step on a ticket; the reply (the ticket as stored) replaces it. A refusal shows its code. */
export async function act(jobId: string, action: JobAction, text = ''): Promise<boolean> {
  const sock = phoneSocket();
  if (!sock) return false;
  const data: Record<string, string> = { jobId };
  if (action === 'reject') data.reason = text;
  if (action === 'complete' && text) data.remark = text;
  try {
    const r = await sock.request<Record<string, unknown>>(`job.${action}`, data);
    upsert(normalize(r));
    notify(`jobs.done.${action}`);
    return true;
  } catch (e) {
    const code = codeOf(e);
    notify(code === '134' || code === '135' || code === '404' ? `jobs.error.${code}` : 'errors.generic', { code });
    if (code === '134' || code === '404') void loadJobs();
    return false;
  }
}

/** job.deliver: acknowledged every time, announced once; job.canceled removes it. */
export function attachJobs(s: TerminalSocket): void {
  s.handle('job.deliver', (d) => {
    const t = normalize(d);
    if (upsert(t)) {
      useJobs.setState((st) => ({ unseen: st.unseen + 1 }));
      notify('jobs.new', { job: t.job.slice(0, 60) });
      navigator.vibrate?.([200, 100, 200]);
    }
  });
  s.on<{ jobId: string }>('job.canceled', (e) => {
    removeTicket(String(e.data.jobId));
    notify('jobs.canceled');
  });
}
