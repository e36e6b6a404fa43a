import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession, serverRequest, signedIn, fakeSockets } from '../test/terminal';
import { attachLoneWork, resetLoneWork } from './lonework';
import { LoneWork } from './Sos';

// The prompt as the worker sees it: the countdown starts at the time the server gave, however long the app sat
// idle before, and once it runs out the prompt says that the alarm was raised.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  fakeSockets();
  resetLoneWork();
});
afterEach(() => {
  cleanup();
  endSession();
  vi.useRealTimers();
});

const prompt = () => screen.getByTestId('phone-lonework');

describe('lone-worker prompt', () => {
  it('counts down from the server’s 30 s after minutes of idling, then says the alarm was raised', async () => {
    const { ws } = await signedIn(attachLoneWork);
    render(<LoneWork />);
    expect(screen.queryByTestId('phone-lonework')).toBeNull();
    // The app sat idle for five and a half minutes; this device's clock is 2 minutes behind the server's.
    act(() => vi.advanceTimersByTime(329_000));
    const serverNow = Date.now() + 120_000;
    await act(async () => {
      await serverRequest(ws, 'lonework.check', { workId: 'w1', countdown: 30, deadline: serverNow + 30_000, serverTime: serverNow });
    });
    expect(prompt().textContent).toContain('Answer within 30 s');
    expect(prompt().dataset.overdue).toBe('0');
    act(() => vi.advanceTimersByTime(10_000));
    expect(prompt().textContent).toContain('Answer within 20 s');
    act(() => vi.advanceTimersByTime(20_000));
    expect(prompt().dataset.overdue).toBe('1');
    expect(prompt().textContent).toContain('an alarm was raised');
    expect(prompt().textContent).not.toContain('0 s');
    expect(screen.getByTestId('phone-checkin')).not.toBeNull();
  });
});
