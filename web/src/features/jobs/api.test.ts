import { describe, expect, it } from 'vitest';
import { applyChanged, applyRemoved, matches, type Job, type JobQuery } from './api';
import { draftProblem } from './components/JobForm';

const job = (id: string, tickets: [string, number][], task = `Task ${id}`): Job => ({
  jobId: id, job: task, address: 'Gate 4', lat: null, lng: null, creator: '10000001', creatorName: 'D', sendTime: Number(id), status: 0,
  jobMsList: tickets.map(([msId, state]) => ({ msId, msName: msId, state: state as 0, reason: '', remark: '', delivered: true, dispatchTime: 0,
    acceptTime: 0, startTime: 0, endTime: 0, updateTime: 0 })),
});
const q = (extra: Partial<JobQuery> = {}): JobQuery => ({ pageNo: 1, pageSize: 3, ...extra });

describe('job list, live', () => {
  it('a filter matches when one ticket has both the terminal and the state', () => {
    const j = job('1', [['A', 1], ['B', 0]]);
    expect(matches(j, q({ msId: 'A', state: '1' }))).toBe(true);
    expect(matches(j, q({ msId: 'A', state: '0' }))).toBe(false);
    expect(matches(j, q({ keyword: 'task 1' }))).toBe(true);
    expect(matches(j, q({ keyword: 'pump' }))).toBe(false);
  });

  it('job.changed replaces a row, drops it when it no longer matches, and puts a new one first on page 1 only', () => {
    const rows = [job('3', [['A', 0]]), job('2', [['A', 0]]), job('1', [['A', 0]])];
    expect(applyChanged(rows, job('2', [['A', 1]]), q()).map((r) => r.jobMsList[0]!.state)).toEqual([0, 1, 0]);
    expect(applyChanged(rows, job('2', [['A', 1]]), q({ state: '0' })).map((r) => r.jobId)).toEqual(['3', '1']);
    expect(applyChanged(rows, job('4', [['A', 0]]), q()).map((r) => r.jobId)).toEqual(['4', '3', '2']);
    expect(applyChanged(rows, job('4', [['A', 0]]), q({ pageNo: 2 }))).toBe(rows);
    expect(applyChanged(rows, job('4', [['B', 0]]), q({ msId: 'A' }))).toBe(rows);
  });

  it('job.removed drops a job, or one ticket (and the job with its last one)', () => {
    const rows = [job('2', [['A', 0], ['B', 0]]), job('1', [['A', 0]])];
    expect(applyRemoved(rows, '2').map((r) => r.jobId)).toEqual(['1']);
    expect(applyRemoved(rows, '2', 'B')[0]!.jobMsList.map((t) => t.msId)).toEqual(['A']);
    expect(applyRemoved(rows, '1', 'A').map((r) => r.jobId)).toEqual(['2']);
  });
});

describe('new ticket form', () => {
  const ok = { job: 'Check the pump', address: '', msIds: ['A'], lat: null, lng: null };
  it('says what the server would refuse, before sending', () => {
    expect(draftProblem(ok)).toBeNull();
    expect(draftProblem({ ...ok, job: '  ' })).toBe('codes.130');
    expect(draftProblem({ ...ok, msIds: [] })).toBe('codes.131');
    expect(draftProblem({ ...ok, msIds: Array.from({ length: 101 }, (_, i) => String(i)) })).toBe('codes.132');
    expect(draftProblem({ ...ok, lat: 41, lng: null })).toBe('codes.133');
    expect(draftProblem({ ...ok, lat: 95, lng: 29 })).toBe('codes.133');
    expect(draftProblem({ ...ok, lat: 41, lng: 29 })).toBeNull();
    expect(draftProblem({ ...ok, job: 'é'.repeat(501) })).toBe('codes.136');
  });
});
