// Browser cases of issue 33 (helper E4): groups and terminal tools on the dispatch screen, against the real binary.
// A terminal leaves a fixed group from the tree (removeGroupMs), temp-group controls only for accounts that may
// manage temp groups (spec §6: type "1") with the creator named on a temp group's row, and the set-param dialog
// opening with the terminal's current values (param.get, answered by the demo's simulated terminal).
// Each case puts the demo back as it found it.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { api, dispatcherConsole, expect, menuItem, until } from './harness.mjs';

/** A demo console account the quiet fleet leaves alone (harness LEFT_TO_CASES), made a "-2" dispatcher here. */
const RESTRICTED = { uid: '10000159', pwd: '123456' };
/** Demo app terminals left to cases: one joins and leaves a fixed group, two make a temp group. */
const LEAVER = '10000170';
const TEMP_MEMBERS = ['10000171', '10000172'];
/** A terminal of the quiet fleet: the server's simulator runs it, and it answers param.get. */
const SIMULATED = '10000118';

/**
 * Sets an account's feature access code with the operator's tool (`tenfour admin account-type`) on the running
 * server's store: scripts/e2e.sh serves --data from the directory that holds E2E_TILES' folder, with E2E_BIN (or
 * bin/tenfour). The server reads the code on every request; a console learns it at sign-in.
 */
function accountType(uid, type) {
  expect(process.env.E2E_TILES, 'scripts/e2e.sh sets E2E_TILES (its data directory holds the store)');
  const data = dirname(dirname(process.env.E2E_TILES));
  execFileSync(process.env.E2E_BIN ?? 'bin/tenfour', ['admin', 'account-type', '--data', data, '--uid', uid, '--type', type], { stdio: 'pipe' });
}

async function searchTree(page, text) {
  await page.fill('[data-testid=tree-search] input', text);
}

/** The value an antd InputNumber (by its test id) shows. */
const numberIn = (page, testid) => page.$eval(`[data-testid=${testid}]`, (el) => (el.tagName === 'INPUT' ? el : el.querySelector('input')).value);

export const groupsCases = [
  [
    'groups: a terminal leaves a fixed group from the tree menu after a confirmation, and the tree follows live',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      const name = `E2E leave ${Date.now().toString(36).slice(-5)}`;
      const added = await api(page, 'POST', '/ds/nms/addGroup', { name, fid: '0' });
      expect(added.code === '0', `addGroup ${JSON.stringify(added)}`);
      const gid = String(added.result.gid);
      try {
        const saved = await api(page, 'POST', '/ds/nms/saveGroupMs', { msId: LEAVER, groupId: gid, keepOldGrp: '1', pttGrp: '0', diffClient: '0' });
        expect(saved.code === '0', `saveGroupMs ${JSON.stringify(saved)}`);
        await searchTree(page, LEAVER);
        // The terminal's row under the new group: the tree node right after the group's.
        const row = `xpath=//div[contains(@class,"ant-tree-treenode")][.//*[@data-testid="group-row"][@data-gid="${gid}"]]/following-sibling::div[1]//*[@data-testid="terminal-row"][@data-cid="${LEAVER}"]`;
        await page.waitForSelector(row, { timeout: 15_000 });
        await page.click(row, { button: 'right' });
        await menuItem(page, 'Remove from this group');
        await page.waitForSelector(`.ant-modal-confirm:has-text("Remove from group?"):has-text("${name}")`);
        await page.click('.ant-modal-confirm .ant-btn-primary');
        await page.waitForSelector('.ant-message-notice:has-text("Removed from the group")');
        // Searching for the terminal, the group no longer shows: group.changed made the tree fetch it again.
        await until(async () => !(await page.$(`[data-testid=group-row][data-gid="${gid}"]`)), 'the group leaves the filtered tree');
        const tree = await api(page, 'GET', '/ds/data/getGrpMsList');
        const g = tree.result.groups.find((x) => String(x.gid) === gid);
        expect(g && !g.msList.some((t) => String(t.cid) === LEAVER), `the group's members ${JSON.stringify(g?.msList?.map((t) => t.cid))}`);
        // Still a member of its own groups: only this membership went.
        expect(tree.result.groups.some((x) => x.msList.some((t) => String(t.cid) === LEAVER)), 'the terminal keeps its other groups');
      } finally {
        await api(page, 'POST', '/ds/nms/removeGroupMs', { msId: LEAVER, groupId: gid }).catch(() => {});
        await api(page, 'POST', '/ds/nms/deleteGroup', { gid }).catch(() => {});
      }
    },
  ],
  [
    'groups: a temp group names its creator; a "-2" dispatcher is offered no temp-group controls (spec §6)',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      const name = `E2E by ${Date.now().toString(36).slice(-5)}`;
      let gid;
      accountType(RESTRICTED.uid, '-2');
      try {
        // A type "1" dispatcher makes a temp group from the tree.
        await searchTree(page, '1000017');
        for (const cid of TEMP_MEMBERS) {
          await page.click(`.ant-tree-treenode:has([data-testid=terminal-row][data-cid="${cid}"]) .ant-tree-checkbox >> nth=0`);
        }
        await page.click('[data-testid=create-temp]');
        await page.fill('[data-testid=name-input]', name);
        await page.click('.ant-modal-footer >> visible=true >> .ant-btn-primary');
        await searchTree(page, name);
        const creator = await page.waitForSelector(`[data-testid=group-row][data-kind=temp]:has-text("${name}") [data-testid=group-creator]`, { timeout: 15_000 });
        expect((await creator.textContent()).includes('by Dispatcher'), `creator shown: ${await creator.textContent()}`);
        gid = await page.getAttribute(`[data-testid=group-row][data-kind=temp]:has-text("${name}")`, 'data-gid');

        // The "-2" dispatcher of the same customer sees the group and its creator, but no control to manage it.
        const restricted = await dispatcherConsole(context, undefined, RESTRICTED);
        const rp = restricted.page;
        await searchTree(rp, name);
        const row = await rp.waitForSelector(`[data-testid=group-row][data-gid="${gid}"]`, { timeout: 15_000 });
        expect((await rp.textContent(`[data-testid=group-row][data-gid="${gid}"] [data-testid=group-creator]`)).includes('by Dispatcher'), 'creator shown to the -2 dispatcher');
        expect(!(await rp.$('[data-testid=create-temp]')), 'no temp-group button for a -2 dispatcher');
        await row.click({ button: 'right' });
        await rp.waitForSelector('.ant-dropdown-menu-item:has-text("Make this my group")');
        const items = await rp.$$eval('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', (els) => els.map((e) => e.textContent));
        expect(!items.some((x) => /^(Rename|Delete)$/.test(x.trim())), `temp group menu of a -2 dispatcher: ${items.join(', ')}`);
        await rp.keyboard.press('Escape');
        // Its members' menu offers no "Remove from temp group" either.
        await searchTree(rp, TEMP_MEMBERS[0]);
        await rp.click(`xpath=//div[contains(@class,"ant-tree-treenode")][.//*[@data-testid="group-row"][@data-gid="${gid}"]]/following-sibling::div[1]//*[@data-testid="terminal-row"]`, { button: 'right' });
        await rp.waitForSelector('.ant-dropdown-menu-item:has-text("Information")');
        expect(!(await rp.$('.ant-dropdown-menu-item:has-text("Remove from temp group")')), 'no temp-member removal for a -2 dispatcher');
        // The type "1" dispatcher is offered them.
        await searchTree(page, TEMP_MEMBERS[0]);
        await page.click(`xpath=//div[contains(@class,"ant-tree-treenode")][.//*[@data-testid="group-row"][@data-gid="${gid}"]]/following-sibling::div[1]//*[@data-testid="terminal-row"]`, { button: 'right' });
        await page.waitForSelector('.ant-dropdown-menu-item:has-text("Remove from temp group")');
        await page.keyboard.press('Escape');
      } finally {
        accountType(RESTRICTED.uid, '1');
        if (gid) {
          await searchTree(page, name);
          await page.click(`[data-testid=group-row][data-gid="${gid}"]`, { button: 'right' }).catch(() => {});
          await menuItem(page, 'Delete').catch(() => {});
          await page.click('.ant-modal-confirm .ant-btn-primary').catch(() => {});
        }
      }
    },
  ],
  [
    "groups: the set-param dialog opens with the terminal's current values (param.get, as the terminal reports them)",
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      await searchTree(page, SIMULATED);
      await page.click(`[data-testid=terminal-row][data-cid="${SIMULATED}"] >> nth=0`);
      await page.waitForSelector(`[data-testid=terminal-info][data-cid="${SIMULATED}"]`);
      await page.click('[data-testid=panel-tools-params]');
      await page.waitForSelector('[data-testid=params-dialog][data-current=reported]', { timeout: 15_000 });
      // The simulator's defaults (internal/sim): heartbeat and status every minute; its GPS interval is set too.
      for (const k of ['heartbeat', 'statusInterval']) {
        expect((await numberIn(page, `param-n-${k}`)) === '1', `${k} shows ${await numberIn(page, `param-n-${k}`)}`);
        expect((await page.textContent(`[data-testid=param-unit-${k}]`)).includes('minutes'), `${k} unit ${await page.textContent(`[data-testid=param-unit-${k}]`)}`);
      }
      expect(/^\d+$/.test(await numberIn(page, 'param-n-gpsInterval')), 'the GPS interval is filled in');
      expect((await page.textContent('[data-testid=params-source]')).includes('as the terminal reports them'), 'the dialog says where the values come from');
    },
  ],
];
