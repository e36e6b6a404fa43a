import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { initI18n } from '../../../i18n';
import { expandCompact } from '../../../shared/directory/api';
import { useDirectory } from '../../../shared/directory/store';
import { TerminalRow } from './TerminalRow';

beforeAll(() => initI18n('en-US'));
afterEach(cleanup);

describe('TerminalRow', () => {
  it('marks an account that connects over SIP, as the compact tree carries it, and no other (issue 34)', () => {
    const [g] = expandCompact({
      cols: ['cid', 'name', 'type', 'online', 'grp', 'kind'],
      groups: [{ gid: '1', fid: '0', name: 'Ops', ms: [['10000180', 'Desk phone 1', '0', '1', '1', 'sip'], ['10000101', 'Unit 1', '10', '1', '1', null]] }],
    } as never);
    useDirectory.setState({ terminals: Object.fromEntries(g.msList!.map((t) => [t.cid, t])) } as never);
    render(<TerminalRow cid="10000180" gid="1" />);
    expect(screen.getByTestId('terminal-sip').textContent).toBe('SIP');
    cleanup();
    render(<TerminalRow cid="10000101" gid="1" />);
    expect(screen.getByTestId('terminal-row')).toBeTruthy();
    expect(screen.queryByTestId('terminal-sip')).toBeNull();
  });
});
