// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { englishErrorText, expectCommonCodes } from '../../shared/test/errorText';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import jobs from './i18n/en-US.json';
import { jobKeys } from './api';
import { draftProblem } from './components/JobForm';
import { JOB_EVENTS } from './useLiveJobs';

describe('job tickets, live', () => {
  it("a job sent, acted on or withdrawn refreshes every job list and that job's history", () => {
    expect(staleKeys(JOB_EVENTS, 'job.changed', { jobId: '7' })).toEqual([['jobs', 'list'], ['jobs', 'history', '7']]);
    expect(staleKeys(JOB_EVENTS, 'job.removed', { jobId: 7, msId: 'A' })).toEqual([['jobs', 'list'], ['jobs', 'history', '7']]);
    expect(staleKeys(JOB_EVENTS, 'job.removed', {})).toEqual([jobKeys.list.all]);
  });

  it('refreshes what the page queries, not the report', () => {
    expect(jobKeys.list({ pageNo: 1, pageSize: 20 }).slice(0, 2)).toEqual(jobKeys.list.all);
    expect(jobKeys.history('7')).toEqual(['jobs', 'history', '7']);
    expect(staleKeys(JOB_EVENTS, 'job.changed', { jobId: '7' })).not.toContainEqual(jobKeys.report.all);
  });
});

const text = await englishErrorText('jobs', jobs);

describe('job error text', () => {
  it("shows the tickets' own codes, and the generic ones from the common namespace", () => {
    expect(text(new ApiError('134', 'accept is not possible when the ticket is over', 'errors.job.transition'))).toBe(jobs.errors['134']);
    expectCommonCodes(text);
  });
});

describe('new ticket form', () => {
  const ok = { job: 'Check the pump', address: '', msIds: ['A'], lat: null, lng: null };
  it('says what the server would refuse, before sending', () => {
    expect(draftProblem(ok)).toBeNull();
    expect(draftProblem({ ...ok, job: '  ' })).toBe('errors.130');
    expect(draftProblem({ ...ok, msIds: [] })).toBe('errors.131');
    expect(draftProblem({ ...ok, msIds: Array.from({ length: 101 }, (_, i) => String(i)) })).toBe('errors.132');
    expect(draftProblem({ ...ok, lat: 41, lng: null })).toBe('errors.133');
    expect(draftProblem({ ...ok, lat: 95, lng: 29 })).toBe('errors.133');
    expect(draftProblem({ ...ok, lat: 41, lng: 29 })).toBeNull();
    expect(draftProblem({ ...ok, job: 'é'.repeat(501) })).toBe('errors.136');
  });
});
