import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLocation, useLocation } from '../location/location';
import { answer, endSession, lastWS, LOGIN, sent, serverRequest, signedIn, fakeSockets } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { attachLoneWork, checkIn, overdue, secondsLeft, timeLeftMs, useLoneWork } from './lonework';
import { attachSos, cancelSos, raiseSos, resendSos, resetSos, sosMessage, useSos } from './sos';

beforeEach(() => {
  localStorage.clear();
  fakeSockets();
  resetSos();
  resetLocation();
  useLoneWork.setState({ check: null });
  useNotice.setState({ notice: undefined });
});
afterEach(() => {
  endSession();
  vi.useRealTimers();
});

describe('phone SOS', () => {
  it('raised with the newest position, acknowledged by a dispatcher, cancelled by the worker', async () => {
    const { ws } = await signedIn(attachSos, attachLoneWork);
    useLocation.setState({ last: { lat: 41.0311, lng: 28.9842, time: 1 } });
    const raised = raiseSos();
    expect(useSos.getState().state).toBe('sending');
    expect(sosMessage(useSos.getState())).toEqual(['sos.sending']);
    expect(sent(ws, 'sos.raise')[0]!.data).toEqual({ type: '3', lat: 41.0311, lng: 28.9842 });
    answer(ws, 'sos.raise', '0', { id: 55, state: 0 });
    await raised;
    expect(useSos.getState()).toMatchObject({ state: 'open', id: '55' });
    expect(sosMessage(useSos.getState())).toEqual(['sos.open']);

    ws.event('sos.acked', { id: 55, responder: '10000001', responderName: 'Dispatch' });
    expect(useSos.getState()).toMatchObject({ state: 'acked', id: '55', responder: 'Dispatch' });
    expect(sosMessage(useSos.getState())).toEqual(['sos.acked', { name: 'Dispatch' }]);
    expect(sosMessage({ state: 'acked', id: '55' })).toEqual(['sos.ackedNobody']);

    // A refused cancel leaves the alarm raised; "91" (already closed) ends it here too.
    const refused = cancelSos();
    answer(ws, 'sos.cancel', '500');
    await refused;
    expect(useSos.getState().state).toBe('acked');
    expect(useNotice.getState().notice).toMatchObject({ key: 'errors.generic', vars: { code: '500' } });
    const cancelled = cancelSos();
    expect(sent(ws, 'sos.cancel').at(-1)!.data).toEqual({ id: '55' });
    answer(ws, 'sos.cancel', '91');
    await cancelled;
    expect(useSos.getState()).toEqual({ state: 'idle' });
  });

  it('raised offline it stays "sending" and goes out again after the next login', async () => {
    vi.useFakeTimers();
    const { ws } = await signedIn(attachSos, attachLoneWork);
    ws.close();
    await raiseSos();
    expect(useSos.getState()).toMatchObject({ state: 'sending', error: '4' });
    expect(sosMessage(useSos.getState())).toEqual(['sos.retry']);

    await vi.advanceTimersByTimeAsync(30_000);
    const again = lastWS();
    again.open();
    answer(again, 'session.login', '0', LOGIN);
    await vi.advanceTimersByTimeAsync(0);
    resendSos();
    expect(sent(again, 'sos.raise')[0]!.data).toEqual({ type: '3' });
    answer(again, 'sos.raise', '0', { id: 56, state: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(useSos.getState()).toMatchObject({ state: 'acked', id: '56', error: undefined });
    resendSos(); // nothing left to send
    expect(sent(again, 'sos.raise')).toHaveLength(1);
  });

  it('closed by the dispatcher (sos.stop request or sos.closed event) with a notice', async () => {
    const { ws } = await signedIn(attachSos, attachLoneWork);
    useSos.setState({ state: 'open', id: '9' });
    expect((await serverRequest(ws, 'sos.stop', { id: 9 })).code).toBe('0');
    expect(useSos.getState()).toEqual({ state: 'idle' });
    expect(useNotice.getState().notice?.key).toBe('sos.closed');
    useSos.setState({ state: 'acked', id: '10', responder: 'Dispatch' });
    ws.event('sos.closed', { id: 10 });
    expect(useSos.getState()).toEqual({ state: 'idle' });
  });
});

describe('lone-worker check', () => {
  it('the server asks, the countdown follows the server’s clock, "I’m fine" answers it', async () => {
    const { ws } = await signedIn(attachSos, attachLoneWork);
    // The device's clock stands still while the request is handled, so the prompt's deadline is exactly the time
    // left the server gave from `now` (on a loaded machine a real clock moves a millisecond or more meanwhile).
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    const asked = await serverRequest(ws, 'lonework.check', { workId: 'w1', deadline: now - 5000 + 60_000, countdown: 60, serverTime: now - 5000 });
    expect(asked.code).toBe('0');
    const check = useLoneWork.getState().check!;
    expect(check.workId).toBe('w1');
    expect(secondsLeft(check, now)).toBe(60); // this device runs 5 s ahead of the server
    expect(secondsLeft(check, now + 59_600)).toBe(1);
    expect(overdue(check, now + 59_600)).toBe(false);
    expect(secondsLeft(check, now + 60_000)).toBe(0);
    expect(overdue(check, now + 60_000)).toBe(true);
    expect(secondsLeft(check, now + 90_000)).toBe(0);

    const done = checkIn();
    expect(sent(ws, 'lonework.checkin')[0]!.data).toEqual({ workId: 'w1' });
    answer(ws, 'lonework.checkin');
    await done;
    expect(useLoneWork.getState().check).toBeNull();
    expect(useNotice.getState().notice?.key).toBe('lonework.thanks');

    await serverRequest(ws, 'lonework.check', { workId: 'w2', deadline: now, countdown: 30, serverTime: now });
    ws.event('lonework.end', { workId: 'w2' });
    expect(useLoneWork.getState().check).toBeNull();
  });
});

describe('the time a lone-worker prompt gives', () => {
  it('is the server’s deadline minus its clock, whatever this device’s clock says; else the countdown', () => {
    expect(timeLeftMs({ deadline: 1_000_030_000, serverTime: 1_000_000_000, countdown: 30 })).toBe(30_000);
    expect(timeLeftMs({ deadline: 1_000_029_400, serverTime: 1_000_000_000, countdown: 30 })).toBe(29_400);
    expect(timeLeftMs({ countdown: 30 })).toBe(30_000);
    expect(timeLeftMs({ deadline: 5, serverTime: 10 })).toBe(0);
  });
});
