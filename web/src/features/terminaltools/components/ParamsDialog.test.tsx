import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initI18n } from '../../../i18n';
import { useDirectory } from '../../../shared/directory/store';
import { toolsApi, type CurrentParams } from '../api';
import { ParamsDialog } from './ParamsDialog';

beforeAll(() => initI18n('en-US'));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The dialog of terminal 10000101 whose param.get answers current. */
function open(current: CurrentParams) {
  useDirectory.setState({ terminals: { '10000101': { cid: '10000101', name: 'Unit 1', type: '10', online: '1', grp: '1' } } } as never);
  const ask = vi.spyOn(toolsApi, 'currentParams').mockResolvedValue(current);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ParamsDialog cid="10000101" onClose={() => {}} />
    </QueryClientProvider>,
  );
  return ask;
}

const shown = (k: string) => (screen.getByTestId(`param-n-${k}`).closest('.ant-input-number')?.querySelector('input') ?? screen.getByTestId(`param-n-${k}`)) as HTMLInputElement;

// The first render loads antd's modal and form parts: slow on a busy machine.
describe('ParamsDialog', { timeout: 20_000 }, () => {
  it("opens with the terminal's current values, none chosen for sending (issue 33: it opened empty)", async () => {
    const ask = open({ msId: '10000101', params: { gpsInterval: '15s', heartbeat: '1m', statusInterval: '2h' }, reported: true });
    await waitFor(() => expect(screen.getByTestId('params-dialog').getAttribute('data-current')).toBe('reported'));
    expect(ask).toHaveBeenCalledWith('10000101');
    expect(shown('gpsInterval').value).toBe('15');
    expect(shown('heartbeat').value).toBe('1');
    expect(shown('statusInterval').value).toBe('2');
    expect(shown('heartbeat').disabled).toBe(true);
    expect(screen.getByTestId('params-source').textContent).toContain('as the terminal reports them');
  });

  it('says when the values are the last ones the terminal acknowledged', async () => {
    open({ msId: '10000101', params: { heartbeat: '5m' }, reported: false });
    await waitFor(() => expect(screen.getByTestId('params-dialog').getAttribute('data-current')).toBe('stored'));
    expect(shown('heartbeat').value).toBe('5');
    expect(shown('gpsInterval').value).toBe('');
    expect(screen.getByTestId('params-source').textContent).toContain('last values the terminal acknowledged');
  });
});
