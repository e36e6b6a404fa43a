// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isBuilt } from '../../shared/access/routes';
import { reportEntries } from './catalogue';

describe('report catalogue', () => {
  it('lists every built report screen in route order, with its child copy when it has one', () => {
    const list = reportEntries(isBuilt);
    expect(list.map((e) => e.path)).toEqual([
      '/online',
      '/fence-alarm-data',
      '/emergcy-alarm-report',
      '/emergcy-alarm-data',
      '/lonework-alarm-data',
      '/job-tick-data',
      '/call-duration-data',
      '/gps-data',
      '/message-data',
    ]);
    expect(list.find((e) => e.path === '/online')?.childPath).toBe('/online-child');
    expect(list.find((e) => e.path === '/gps-data')?.childPath).toBe('/gps-data-child');
    expect(list.find((e) => e.path === '/message-data')?.childPath).toBeUndefined();
  });

  it('leaves out screens that are not built', () => {
    expect(reportEntries(() => false)).toEqual([]);
    expect(reportEntries((s) => s === 'online').map((e) => e.path)).toEqual(['/online']);
  });
});
