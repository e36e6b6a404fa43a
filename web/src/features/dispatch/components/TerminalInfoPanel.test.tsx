import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initI18n } from '../../../i18n';
import { useDirectory } from '../../../shared/directory/store';
import { useSession, type Session } from '../../../shared/session';
import { TerminalInfoPanel } from './TerminalInfoPanel';

/** The panel of terminal 10000101 for a dispatcher of account type 1 whose client switches are dsConfig. */
function panel(dsConfig: Record<string, string>) {
  useSession.setState({ session: { token: 't', account: '10000001', userInfo: { msId: '10000001' }, version: '1', accountType: '1', dsConfig } as unknown as Session });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <TerminalInfoPanel cid="10000101" onAction={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(() => initI18n('en-US'));
afterEach(() => {
  cleanup();
  useSession.setState({ session: undefined });
});

describe('TerminalInfoPanel', () => {
  useDirectory.setState({ terminals: { '10000101': { cid: '10000101', name: 'Unit 1', type: '10', online: '1', grp: '1' } } } as never);

  it('shows the management buttons where the terminal-manage switch is on', () => {
    panel({});
    for (const a of ['rename', 'move', 'switch', 'avatar', 'stun', 'kill', 'revive']) expect(screen.getByTestId(`info-${a}`)).toBeTruthy();
  });
  it('hides them where the switch is off, as the tree menu does (issue 33)', () => {
    panel({ terminalManage: '0' });
    expect(screen.getByText('Unit 1')).toBeTruthy();
    expect(screen.queryByText('Rename')).toBeNull();
    expect(screen.queryByText('Stun')).toBeNull();
    expect(screen.queryByText('Revive')).toBeNull();
  });
});
