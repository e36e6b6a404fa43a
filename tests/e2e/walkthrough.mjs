// Browser cases of issue 15 (what a dispatcher hit in a walkthrough): presence stays true after switching screens,
// and the voice dock never covers a screen.
//
// Accounts: the phone-like terminal 10000153 (tests/e2e/terminal.mjs; closed at the end of its case); the quiet demo
// fleet's PMR radio 10000121, which no other case uses: a login from the terminal driver replaces the simulated
// one's session and the simulator never logs it back in (internal/sim: a replaced account stays offline), so
// closing the driver takes a simulated terminal offline for good.
import { readFileSync } from 'node:fs';
import { api, dispatcherConsole, expect, openInApp, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

const PHONE = '10000153';
const SIMULATED = '10000121';

/** The ids the server says are online (GET /ds/nms/getTerminalByClient online=1). */
async function serverOnline(page) {
  const r = await api(page, 'GET', '/ds/nms/getTerminalByClient?online=1&pageSize=1000');
  expect(r.code === '0', `online list answered ${JSON.stringify(r).slice(0, 200)}`);
  return new Set(r.result.list.map((t) => String(t.cid)));
}

/** The tree's online flag of one terminal (searched by id), or null while its row is not shown. */
async function treeOnline(page, uid) {
  await page.fill('[data-testid=tree-search] input', uid);
  const row = await page.$(`[data-testid=terminal-row][data-cid="${uid}"]`);
  return row ? row.getAttribute('data-online') : null;
}

/** Clicks a main-menu entry by its label (a client-side navigation, as a dispatcher does). */
async function menu(page, label) {
  await page.click(`[data-testid=main-menu] .ant-menu-item:has-text("${label}")`);
}

/** Every shell route of the route table (web/src/shared/access/routes.ts), without the extra-window copies. */
function shellRoutes() {
  const src = readFileSync(new URL('../../web/src/shared/access/routes.ts', import.meta.url), 'utf8');
  const paths = [...src.matchAll(/path: '(\/[^']*)'/g)].map((m) => m[1]);
  return [...new Set(paths)].filter((p) => !p.endsWith('-child') && p !== '/patrol-sys'); // patrol-sys renders bare
}

/**
 * What lies under the voice dock: every element hit at points 12 px apart over the dock's box that is neither the
 * dock (or inside it) nor one of its ancestors. Empty when the dock covers nothing.
 */
function underDock(page) {
  return page.evaluate(() => {
    const dock = document.querySelector('[data-testid=voice-dock]');
    if (!dock) return ['no voice dock'];
    const r = dock.getBoundingClientRect();
    const found = new Set();
    for (let x = r.left + 1; x < r.right; x += 12) {
      for (let y = r.top + 1; y < r.bottom; y += 12) {
        for (const el of document.elementsFromPoint(x, y)) {
          if (dock.contains(el) || el.contains(dock)) continue;
          found.add(`${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${String(el.className).split(' ')[0]}`);
        }
      }
    }
    return [...found].slice(0, 6);
  });
}

/** The PTT button and the talker readout are entirely inside the window. */
function dockControlsVisible(page) {
  return page.evaluate(() =>
    ['[data-testid=voice-dock] .vptt', '[data-testid=voice-talker]'].every((sel) => {
      const el = document.querySelector(sel);
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    }),
  );
}

export const walkthroughCases = [
  [
    'presence: terminals that changed while another screen showed are right in the tree on return by the menu (phone and simulated)',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      // The simulated radio is online and the phone offline to begin with, on the server and in the tree.
      await until(async () => {
        const on = await serverOnline(page);
        return on.has(SIMULATED) && !on.has(PHONE);
      }, `${SIMULATED} online and ${PHONE} offline on the server`, 30_000);
      await until(async () => (await treeOnline(page, SIMULATED)) === '1', `${SIMULATED} online in the tree`);
      await until(async () => (await treeOnline(page, PHONE)) === '0', `${PHONE} offline in the tree`);
      await page.fill('[data-testid=tree-search] input', '');
      await page.evaluate(() => (window.__noReload = true));

      // Away on SOS management: the phone comes online, the simulated radio goes offline.
      await menu(page, 'SOS management');
      await page.waitForSelector('[data-testid=home-page]', { state: 'detached' });
      const phone = await terminal(PHONE);
      const taken = await terminal(SIMULATED); // replaces the simulator's session: it stays away
      await taken.close();
      await until(async () => {
        const on = await serverOnline(page);
        return on.has(PHONE) && !on.has(SIMULATED);
      }, `the server has ${PHONE} online and ${SIMULATED} offline`);

      // Back on Dispatch by the menu: the tree shows what the server says, for both and for every row it shows.
      await menu(page, 'Dispatch');
      await page.waitForSelector('[data-testid=home-page]');
      await until(async () => (await treeOnline(page, PHONE)) === '1', `${PHONE} online in the tree after the return`, 10_000);
      await until(async () => (await treeOnline(page, SIMULATED)) === '0', `${SIMULATED} offline in the tree after the return`, 10_000);
      const me = await until(async () => treeOnline(page, '10000001'), 'the dispatcher’s own row');
      expect(me === '1', 'the dispatcher’s own account shows offline');
      await page.fill('[data-testid=tree-search] input', '');
      const online = await serverOnline(page);
      const rows = await page.$$eval('[data-testid=terminal-row]', (els) => els.map((e) => [e.getAttribute('data-cid'), e.getAttribute('data-online')]));
      expect(rows.length > 0, 'no terminal rows shown');
      const wrong = rows.filter(([cid, on]) => (on === '1') !== online.has(cid));
      expect(wrong.length === 0, `rows that differ from the server's online list: ${JSON.stringify(wrong)}`);
      expect(await page.evaluate(() => window.__noReload === true), 'the page was reloaded');
      await phone.close();
      await until(async () => (await treeOnline(page, PHONE)) === '0', `${PHONE} offline again`);
    },
  ],
  [
    'the voice dock covers nothing on any screen at 1440×900 and 1280×720, and keeps PTT and the talker readout in view (collapsed too)',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      const routes = shellRoutes();
      expect(routes.length >= 20 && routes.includes('/home') && routes.includes('/message'), `routes read: ${routes.join(' ')}`);
      const covered = [];
      for (const size of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
        await page.setViewportSize(size);
        for (const path of routes) {
          await openInApp(page, path);
          const under = await underDock(page);
          if (under.length) covered.push(`${size.width}×${size.height} ${path}: ${under.join(', ')}`);
          if (!(await dockControlsVisible(page))) covered.push(`${size.width}×${size.height} ${path}: PTT or talker readout out of view`);
        }
      }
      expect(covered.length === 0, `the voice dock covers content:\n  ${covered.join('\n  ')}`);
      // Collapsed: narrower, still beside the screen, PTT and readout still there.
      const wide = await page.evaluate(() => document.querySelector('[data-testid=voice-dock]').getBoundingClientRect().width);
      await page.click('[data-testid=voice-dock-toggle]');
      await until(async () => (await page.getAttribute('[data-testid=voice-dock]', 'data-open')) === '0', 'the dock collapses');
      const narrow = await page.evaluate(() => document.querySelector('[data-testid=voice-dock]').getBoundingClientRect().width);
      expect(narrow < wide, `collapsed ${narrow} px, open ${wide} px`);
      for (const path of ['/home', '/message', '/log', '/monitoring']) {
        await openInApp(page, path);
        const under = await underDock(page);
        if (under.length) covered.push(`collapsed ${path}: ${under.join(', ')}`);
        if (!(await dockControlsVisible(page))) covered.push(`collapsed ${path}: PTT or talker readout out of view`);
      }
      expect(covered.length === 0, `the voice dock covers content:\n  ${covered.join('\n  ')}`);
    },
    { timeoutMs: 240_000 },
  ],
];
