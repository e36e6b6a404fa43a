import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, endSession, sent, signedIn, fakeSockets } from '../test/terminal';
import { useNotice } from '../ui/notice';
import { attachPatrol, loadOrders, resetPatrol } from './patrol';
import { PatrolSheet } from './Patrol';

// The patrol sheet as a guard uses it: the open order's points, "I am here" sends the position the browser gives
// now, the answer marks the point punched; a refusal says why; a new order makes the app read its orders again.
const NOW = 1_795_700_000_000;
const point = (seq: number, name: string, state = 0) => ({
  orderId: 7,
  seq,
  pointId: seq,
  name,
  nfcValue: `T-${seq}`,
  lat: 41 + seq / 1000,
  lng: 29,
  radius: 30,
  state,
  punchTime: 0,
  method: '',
});
const order = (states: number[]) => ({
  orderId: 7,
  planName: 'Rounds',
  className: 'Morning',
  routeName: 'Fence line',
  areaName: 'Depot',
  day: '2026-11-26',
  startTime: NOW - 60_000,
  endTime: NOW + 3_600_000,
  judgeTime: NOW + 5_400_000,
  state: 0,
  reasons: [],
  total: 2,
  punched: states.filter((s) => s > 0).length,
  points: [point(1, 'Gate', states[0]), point(2, 'Depot', states[1])],
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  fakeSockets();
  resetPatrol();
  vi.stubGlobal('navigator', {
    ...navigator,
    geolocation: { getCurrentPosition: (ok: PositionCallback) => ok({ coords: { latitude: 41.001, longitude: 29.0001 }, timestamp: NOW } as GeolocationPosition) },
  });
});
afterEach(() => {
  cleanup();
  endSession();
  vi.useRealTimers();
});

const states = () => screen.getAllByTestId('phone-patrol-point').map((li) => li.dataset.state);

describe('patrol sheet', () => {
  it('shows the open order, punches "I am here" at the browser’s position and marks the point punched', async () => {
    const { ws } = await signedIn(attachPatrol);
    const loading = loadOrders();
    answer(ws, 'patrol.orders', '0', { serverTime: NOW, list: [order([0, 0])] });
    await loading;
    render(<PatrolSheet onClose={() => {}} />);
    expect(states()).toEqual(['0', '0']);
    await act(async () => {
      fireEvent.click(screen.getByTestId('phone-patrol-here'));
      await vi.waitFor(() => expect(sent(ws, 'patrol.punch')).toHaveLength(1));
    });
    expect(sent(ws, 'patrol.punch')[0]!.data).toEqual({ method: 'gps', lat: 41.001, lng: 29.0001 });
    await act(async () => {
      answer(ws, 'patrol.punch', '0', { log: { id: 1, orderId: 7, pointName: 'Gate', method: 'gps', time: NOW, state: 1 }, order: order([1, 0]) });
      await vi.waitFor(() => expect(states()).toEqual(['1', '0']));
    });
    expect(screen.getByTestId('phone-patrol-last').textContent).toContain('Gate punched');
  });

  it('says why a punch was refused, and reads the orders again when one is assigned', async () => {
    const { ws } = await signedIn(attachPatrol);
    render(<PatrolSheet onClose={() => {}} />);
    fireEvent.change(screen.getByTestId('phone-patrol-code'), { target: { value: 'NOPE' } });
    await act(async () => {
      fireEvent.submit(screen.getByTestId('phone-patrol-code').closest('form')!);
      await vi.waitFor(() => expect(sent(ws, 'patrol.punch')).toHaveLength(1));
      answer(ws, 'patrol.punch', '1030');
      await vi.waitFor(() => expect(useNotice.getState().notice?.key).toBe('patrol.errors.1030'));
    });
    expect(sent(ws, 'patrol.punch')[0]!.data).toEqual({ method: 'qr', value: 'NOPE' });
    await act(async () => {
      ws.event('patrol.assigned', { orderId: 8 });
      await vi.waitFor(() => expect(sent(ws, 'patrol.orders')).toHaveLength(1));
    });
  });
});
