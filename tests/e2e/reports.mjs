// Browser cases of issue 19 items 4–6 (helper "reports"): the online and call-duration reports against the demo's
// week of activity (internal/demo activity.go) and the live fleet, their .xlsx exports, and the terminal tools
// (mute list, remote parameters, rights) against terminals driven over the socket (terminal.mjs). Demo terminals
// 10000170 and 10000171 (left to this file; the quiet fleet never runs them). Imported by run.mjs; also runs
// alone: TENFOUR_URL=http://127.0.0.1:18106 node tests/e2e/reports.mjs
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { api, dispatcherConsole, expect, menuItem, run, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

const T_MAIN = '10000170';
const T_OTHER = '10000171';

async function exportXlsx(page, testid, prefix) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.click(`[data-testid=${testid}]`)]);
  const name = download.suggestedFilename();
  expect(name.startsWith(prefix) && name.endsWith('.xlsx'), `file name ${name}`);
  expect(readFileSync(await download.path()).subarray(0, 2).toString('latin1') === 'PK', 'an .xlsx (zip) file');
}

async function selectTerminal(page, uid) {
  await page.fill('[data-testid=tree-search] input', uid);
  await page.click(`[data-testid=terminal-row][data-cid="${uid}"]`);
  await page.waitForSelector(`[data-testid=terminal-info][data-cid="${uid}"]`);
}

export const reportsCases = [
  [
    'reports: /online shows the fleet\'s online time with charts, a terminal\'s intervals and an .xlsx export',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      await page.goto(`${base}/report`);
      await page.click('[data-testid=report-link-online]');
      await page.waitForSelector('[data-testid=online-page][data-loading="0"]');
      await until(async () => Number(await page.getAttribute('[data-testid=online-page]', 'data-total-ms')) > 3_600_000, 'hours of online time this month', 20_000);
      const first = await page.waitForSelector('[data-testid=online-row]');
      expect(Number(await first.getAttribute('data-online-ms')) > 0, 'the first row has online time');
      expect(await page.$('[data-testid=chart-day] canvas'), 'the per-day chart is drawn');
      await first.$('[data-testid=online-detail]').then((b) => b.click());
      await until(async () => Number(await page.getAttribute('[data-testid=online-intervals]', 'data-count')) > 0, 'the terminal\'s intervals', 15_000);
      await page.keyboard.press('Escape');
      await exportXlsx(page, 'report-export', 'online-time-');
    },
  ],
  [
    'reports: /call-duration-data shows talk time per terminal and group with an .xlsx export',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/ds/report/findCallDurationPost'));
      await page.goto(`${base}/call-duration-data`);
      // The page's own range (this month in the customer's zone): a range made here in the test's zone could
      // cross a month boundary of the customer's on the last or first day of a month (it did, on 30 November).
      const { sTime, eTime } = JSON.parse((await asked).postData() ?? '{}');
      await page.waitForSelector('[data-testid=call-duration-page][data-loading="0"]');
      await until(async () => Number(await page.getAttribute('[data-testid=call-duration-page]', 'data-talk-ms')) > 0, 'talk time this month', 20_000);
      await page.waitForSelector('[data-testid=talk-row]');
      await page.waitForSelector('[data-testid=talk-group-row]');
      // The screen's figures are the server's.
      const r = await api(page, 'POST', '/ds/report/findCallDurationPost', { sTime, eTime });
      expect(r.code === '0' && r.result.terminals.length > 0, `report ${JSON.stringify(r).slice(0, 200)}`);
      await exportXlsx(page, 'report-export', 'call-duration-');
    },
  ],
  [
    'reports: terminal tools: the mute list of a terminal is kept from the tree and the terminal is a simulated one',
    async ({ context }) => {
      const term = await terminal(T_MAIN);
      const { page } = await dispatcherConsole(context);
      await page.fill('[data-testid=tree-search] input', T_MAIN);
      await page.click(`[data-testid=terminal-row][data-cid="${T_MAIN}"]`, { button: 'right' });
      await menuItem(page, 'Mute list');
      await page.waitForSelector('[data-testid=mute-dialog]');
      await page.click('[data-testid=mute-listener] .ant-segmented-item >> nth=1'); // the terminal's own list
      await page.waitForSelector(`[data-testid=mute-dialog][data-listener="${T_MAIN}"]`);
      await page.click('[data-testid=mute-pick]');
      await page.keyboard.type(T_OTHER);
      await page.waitForSelector(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option:has-text("${T_OTHER}")`);
      await page.keyboard.press('Enter');
      await page.click('[data-testid=mute-add]');
      await page.waitForSelector(`[data-testid=mute-row][data-mute-id="${T_OTHER}"]`, { timeout: 15_000 });
      const list = await api(page, 'GET', `/ds/mute/list?msId=${T_MAIN}`);
      expect(list.result.list.some((m) => m.muteId === T_OTHER), `server list ${JSON.stringify(list.result)}`);
      await page.click(`[data-testid=mute-row][data-mute-id="${T_OTHER}"] [data-testid=mute-remove]`);
      await until(async () => !(await page.$(`[data-testid=mute-row][data-mute-id="${T_OTHER}"]`)), 'the entry is removed', 15_000);
      await term.close();
    },
  ],
  [
    'reports: terminal tools: remote parameters reach the terminal and the dialog shows its acknowledgement',
    async ({ context }) => {
      const term = await terminal(T_MAIN);
      const { page } = await dispatcherConsole(context);
      await selectTerminal(page, T_MAIN);
      await page.click('[data-testid=panel-tools-params]');
      await page.waitForSelector('[data-testid=params-dialog]');
      await page.check('[data-testid=param-on-gpsInterval]');
      await page.fill(':is(input[data-testid=param-n-gpsInterval], [data-testid=param-n-gpsInterval] input)', '45');
      await page.click('[data-testid=params-send]');
      await page.waitForSelector('[data-testid=params-dialog][data-state=acked]', { timeout: 15_000 });
      expect((await page.textContent('[data-testid=param-stored-gpsInterval]')) === '45s', 'the stored value is shown');
      await term.waitFor('param.set', (f) => f.data.params?.gpsInterval === '45s', 'the terminal got gpsInterval 45s');
      await term.close();
    },
  ],
  [
    'reports: terminal tools: recording permission switched off and on from the rights dialog',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      await selectTerminal(page, T_OTHER);
      await page.click('[data-testid=panel-tools-rights]');
      await page.waitForSelector('[data-testid=rights-dialog][data-record="1"]');
      await page.click('[data-testid=rights-record]');
      await page.waitForSelector('[data-testid=rights-dialog][data-record="0"]', { timeout: 15_000 });
      let r = await api(page, 'GET', `/ds/voice/rights?msIds=${T_OTHER}`);
      expect(r.result.list[0].record === false, `server rights ${JSON.stringify(r.result)}`);
      await page.click('[data-testid=rights-record]');
      await page.waitForSelector('[data-testid=rights-dialog][data-record="1"]', { timeout: 15_000 });
      r = await api(page, 'GET', `/ds/voice/rights?msIds=${T_OTHER}`);
      expect(r.result.list[0].record === true, 'recording permission back');
      // The demo runs without TURN: sending credentials is refused with the reason.
      await page.click('[data-testid=turn-send]');
      await page.waitForSelector('[data-testid=turn-error]', { timeout: 15_000 });
    },
  ],
  [
    'reports: member states: the tree shows "Calling" while an individual call is set up and "In individual call" once connected',
    async ({ context }) => {
      const term = await terminal(T_OTHER);
      const { page } = await dispatcherConsole(context);
      const row = `[data-testid=terminal-row][data-cid="${T_OTHER}"]`;
      await page.fill('[data-testid=tree-search] input', T_OTHER);
      await page.waitForSelector(`${row}[data-online="1"]`, { timeout: 15_000 });
      await page.click(row, { button: 'right' });
      await menuItem(page, 'Individual call');
      const inv = await term.waitFor('call.invite', () => true, 'the terminal is called', 20_000);
      expect((await term.request('call.status', { callId: inv.data.callId, status: 180 })).code === '0', 'ringing');
      await page.waitForSelector(`${row}[data-call-state=calling] [data-testid=terminal-call-state]:has-text("Calling")`, { timeout: 20_000 });
      expect((await term.request('call.status', { callId: inv.data.callId, status: 200 })).code === '0', 'answered');
      await page.waitForSelector(`${row}[data-call-state=inCall] [data-testid=terminal-call-state]:has-text("In individual call")`, { timeout: 20_000 });
      await page.click(`[data-testid=call-row][data-call-id="${inv.data.callId}"] [data-testid=hang-up]`);
      await page.waitForSelector(`${row}[data-call-state=""]`, { timeout: 20_000 });
      await term.close();
    },
  ],
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit((await run(reportsCases)) > 0 ? 1 : 0);
