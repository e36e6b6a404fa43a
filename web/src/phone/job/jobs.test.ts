import { describe, expect, it } from 'vitest';
import { answer, sent, serverRequest, signedIn, cardSession } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { act, actionsFor, attachJobs, JobState, loadJobs, resetJobs, sorted, useJobs, type Ticket } from './jobs';

const ticket = (id: number, state: number, sendTime = 1_700_000_000_000 + id): Record<string, unknown> => ({
  jobId: String(id), job: `Task ${id}`, address: 'Gate 4', lat: 41.01, lng: 28.97, creator: '10000001', creatorName: 'Dispatch',
  sendTime, state, reason: '', remark: '', acceptTime: 0, startTime: 0, endTime: 0,
});

cardSession(resetJobs);

describe('phone job tickets', () => {
  it('offers exactly the steps the server allows in each state', () => {
    expect(actionsFor(JobState.unsettled)).toEqual(['accept', 'reject']);
    expect(actionsFor(JobState.accepted)).toEqual(['start', 'reject']);
    expect(actionsFor(JobState.working)).toEqual(['complete']);
    expect(actionsFor(JobState.rejected)).toEqual([]);
    expect(actionsFor(JobState.over)).toEqual([]);
  });

  it('a delivered ticket is acknowledged every time, announced once; job.canceled removes it', async () => {
    const { ws } = await signedIn(attachJobs);
    expect((await serverRequest(ws, 'job.deliver', ticket(7, 0))).code).toBe('0');
    expect(useNotice.getState().notice).toMatchObject({ key: 'jobs.new', vars: { job: 'Task 7' } });
    useNotice.setState({ notice: undefined });
    expect((await serverRequest(ws, 'job.deliver', ticket(7, 0))).code).toBe('0');
    expect(useNotice.getState().notice).toBeUndefined();
    expect(useJobs.getState().tickets.map((t) => t.jobId)).toEqual(['7']);
    expect(useJobs.getState().unseen).toBe(1);
    ws.onmessage?.({ data: JSON.stringify({ type: 'job.canceled', data: { jobId: '7' } }) });
    expect(useJobs.getState().tickets).toEqual([]);
  });

  it('a step replaces the ticket with the server’s; a refused step says why and reloads the list', async () => {
    const { ws } = await signedIn(attachJobs);
    await serverRequest(ws, 'job.deliver', ticket(3, 0));
    const ok = act('3', 'accept');
    answer(ws, 'job.accept', '0', { ...ticket(3, 1), acceptTime: 5 });
    expect(await ok).toBe(true);
    expect(sent(ws, 'job.accept')[0]!.data).toEqual({ jobId: '3' });
    expect(useJobs.getState().tickets[0]).toMatchObject({ jobId: '3', state: 1, acceptTime: 5 });

    const refused = act('3', 'complete', 'done');
    answer(ws, 'job.complete', '134');
    expect(await refused).toBe(false);
    expect(sent(ws, 'job.complete')[0]!.data).toEqual({ jobId: '3', remark: 'done' });
    expect(useNotice.getState().notice).toMatchObject({ key: 'jobs.error.134' });
    expect(sent(ws, 'job.list')).toHaveLength(1);
    answer(ws, 'job.list', '0', { list: [ticket(3, 3)] });
    await expect.poll(() => useJobs.getState().tickets[0]?.state).toBe(3);

    const rej = act('3', 'reject', 'Too far');
    answer(ws, 'job.reject', '0', { ...ticket(3, 2), reason: 'Too far' });
    expect(await rej).toBe(true);
    expect(sent(ws, 'job.reject')[0]!.data).toEqual({ jobId: '3', reason: 'Too far' });
  });

  it('job.list after a login is the truth; open tickets first, oldest first, then the settled ones newest first', async () => {
    const { ws } = await signedIn(attachJobs);
    const loaded = loadJobs();
    answer(ws, 'job.list', '0', { list: [ticket(1, 4, 10), ticket(2, 0, 30), ticket(3, 3, 20), ticket(4, 2, 40)] });
    await loaded;
    expect(useJobs.getState().tickets.map((t) => t.jobId)).toEqual(['3', '2', '4', '1']);
    expect(sorted([] as Ticket[])).toEqual([]);
  });
});
