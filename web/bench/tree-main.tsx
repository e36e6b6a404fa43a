// Benchmark page: the real GroupTree with a synthetic fleet, driven by tree.bench.mjs in real Chromium.
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { App } from 'antd';
import { initI18n } from '../src/i18n';
import { GroupTree } from '../src/features/dispatch/components/GroupTree';
import { enqueue, loadSnapshot, useDirectory } from '../src/shared/directory/store';
import type { GroupDto, Terminal } from '../src/shared/directory/model';
import { buildTree, type TreeFilters } from '../src/features/dispatch/tree';

const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

export function fleet(terminals: number, parents: number, childrenPer: number): GroupDto[] {
  const leaves = parents * childrenPer;
  const per = Math.ceil(terminals / leaves);
  let n = 0;
  const groups: GroupDto[] = [];
  for (let p = 0; p < parents; p++) {
    const children: GroupDto[] = [];
    for (let c = 0; c < childrenPer; c++) {
      const msList: Terminal[] = [];
      for (let i = 0; i < per && n < terminals; i++, n++) {
        const cid = String(10_000_000 + n);
        msList.push({ cid, name: `Unit ${n}`, type: n % 50 === 0 ? '20' : n % 3 === 0 ? '10' : '6', online: n % 2 ? '1' : '0', grp: `g${p}-${c}`, battery: n % 100, signal: n % 6, callSetStatus: n % 97 === 0 ? 1 : 8, lastOffline: Date.now() - n * 1000 });
      }
      children.push({ gid: `g${p}-${c}`, fid: `p${p}`, name: `Team ${p}-${c}`, kind: 'fixed', msList });
    }
    groups.push({ gid: `p${p}`, fid: '0', name: `Region ${p}`, kind: 'fixed', color: '#1677ff', children, msList: [] });
  }
  return groups;
}

declare global {
  interface Window {
    bench: {
      mount: (terminals: number, hideOffline: boolean) => Promise<{ ms: number; rows: number; groups: number; dataMs: number }>;
      updates: (perSecond: number, seconds: number) => Promise<{ frames: number; events: number; seconds: number }>;
    };
  }
}

const noop = () => {};

window.bench = {
  async mount(terminals, hideOffline) {
    await initI18n('en-US');
    const dtos = fleet(terminals, 10, 10);
    const filters: TreeFilters = { hideOffline, hideDispatcher: false, search: '' };
    const t0 = performance.now();
    loadSnapshot(dtos);
    const st = useDirectory.getState();
    buildTree(st.groups, st.terminals, filters); // the data part alone (the component builds it again)
    const dataMs = performance.now() - t0;
    createRoot(document.getElementById('root')!).render(
      // The console's frame around the tree: a router (the terminal actions open screens) and antd's App (messages).
      <MemoryRouter>
        <App>
          <GroupTree filters={filters} checkedCids={[]} onCheck={noop} onSelectTerminal={noop} contextMenu={() => []} onMenu={noop} emptyText="" />
        </App>
      </MemoryRouter>,
    );
    // Committed and painted: two frames after the render call.
    while (!document.querySelector('[data-testid=terminal-row]')) await frame();
    await frame();
    const ms = performance.now() - t0;
    return { ms: ms - dataMs, dataMs, rows: document.querySelectorAll('[data-testid=terminal-row]').length, groups: Object.keys(useDirectory.getState().groups).length };
  },

  async updates(perSecond, seconds) {
    const ids = Object.keys(useDirectory.getState().terminals);
    const tickMs = 10;
    const perTick = Math.round((perSecond * tickMs) / 1000);
    let events = 0;
    let frames = 0;
    let running = true;
    const count = () => {
      frames++;
      if (running) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    const timer = setInterval(() => {
      for (let i = 0; i < perTick; i++) {
        const cid = ids[(Math.random() * ids.length) | 0]!;
        const t = useDirectory.getState().terminals[cid]!;
        enqueue({ type: 'presence', data: { msId: cid, online: t.online === '1' ? '0' : '1', time: Date.now() } });
        events++;
      }
    }, tickMs);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    clearInterval(timer);
    running = false;
    return { frames, events, seconds };
  },
};
