// The alarm dialog shows how old the SOS position is from the alarm's own fixTime (the server stores it: issue 32),
// never from a guess over the directory's last position.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { App } from 'antd';
import { initI18n } from '../../../i18n';
import type { SosAlarm } from '../../../shared/alarms/sos';
import { emptyQueue, sosKey } from '../../../shared/alarms/queue';
import { useAlarms } from '../../../shared/alarms/store';
import { useDirectory } from '../../../shared/directory/store';
import AlarmModal from './AlarmModal';

const MINUTE = 60_000;

function alarm(fix: Partial<SosAlarm>): SosAlarm {
  return {
    id: '17', msId: '10000101', msName: 'Unit 1', msType: '10', type: '0', state: 0, time: Date.now() - MINUTE, lat: 41.0082, lng: 28.9784,
    responder: '', responderName: '', responseTime: 0, closer: '', closerName: '', closeTime: 0, closeKind: '', remark: '', ...fix,
  };
}

/** Opens the dialog on one SOS alarm and returns its position cell. */
function show(a: SosAlarm): HTMLElement {
  useAlarms.setState({ ...emptyQueue(), sos: { [a.id]: a }, queue: [sosKey(a.id)], lastAlert: sosKey(a.id) });
  render(
    <App>
      <MemoryRouter>
        <AlarmModal child={false} />
      </MemoryRouter>
    </App>,
  );
  return screen.getByTestId('position');
}

const ageMinutes = (pos: HTMLElement) => Math.round(Number(pos.dataset.ageMs) / MINUTE);

beforeAll(() => initI18n('en-US'));
afterEach(() => {
  cleanup();
  useAlarms.setState({ ...emptyQueue() });
});

describe('the alarm dialog’s position', { timeout: 20_000 }, () => {
  it('is as old as the last fix the server sent on with the SOS (location denied), and marked old', () => {
    const pos = show(alarm({ fixTime: Date.now() - 24 * MINUTE }));
    expect(ageMinutes(pos)).toBe(24);
    expect(pos.dataset.stale).toBe('1');
    expect(screen.getByTestId('position-stale').textContent).toBe('Old position');
  });

  it('is fresh when the SOS carried its own position, fixed at the raise', () => {
    const time = Date.now() - MINUTE;
    const pos = show(alarm({ time, fixTime: time }));
    expect(ageMinutes(pos)).toBe(1);
    expect(pos.dataset.stale).toBe('0');
    expect(screen.queryByTestId('position-stale')).toBeNull();
  });

  it('takes no age from the directory: without a fix time (an event stored before there was one) it says so and marks it old', () => {
    // The directory has a fresh fix at the very same place: the dialog must not borrow its time.
    useDirectory.setState({ terminals: { '10000101': { cid: '10000101', name: 'Unit 1', type: '10', online: '1', grp: '1', lat: 41.0082, lng: 28.9784, lastGps: Date.now() } } });
    const pos = show(alarm({}));
    expect(screen.getByTestId('position-age').textContent).toBe('fix time unknown');
    expect(pos.dataset.stale).toBe('1');
  });
});
