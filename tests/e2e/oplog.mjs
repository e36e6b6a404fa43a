// Browser cases of the operation log (issue 32 item 6): a line of the live panel names its actor once. Demo terminal
// 10000169 (left to this file; the quiet fleet never runs it). Imported by run.mjs; also runs alone:
// TENFOUR_URL=http://127.0.0.1:18082 node tests/e2e/oplog.mjs
import { pathToFileURL } from 'node:url';
import { api, dispatcherConsole, expect, run, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

const T_SELF = '10000169';

/** How often s contains part. */
const count = (s, part) => s.split(part).length - 1;

export const oplogCases = [
  [
    'operation log: a terminal acting on itself (accepting a job ticket, switching its own group) is named once in the live panel',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      const term = await terminal(T_SELF);
      // A job ticket sent to the terminal and accepted by it (log 140, the terminal's own line).
      const task = `E2E oplog ${Date.now()}`;
      const add = await api(page, 'POST', '/ds/job/add', { job: task, msIds: T_SELF });
      expect(add.code === '0', `job/add ${JSON.stringify(add)}`);
      const delivered = await term.waitFor('job.deliver', (f) => f.data?.job === task, `${T_SELF} receives the ticket`);
      const accept = await term.request('job.accept', { jobId: delivered.data.jobId });
      expect(accept.code === '0', `job.accept ${JSON.stringify(accept)}`);
      // The terminal switches its own talk group (log 8).
      const list = await term.request('group.list');
      expect(list.code === '0' && list.data.groups.length > 0, `group.list ${JSON.stringify(list)}`);
      const to = list.data.groups.find((g) => g.gid !== list.data.pttGroup) ?? list.data.groups[0];
      const sw = await term.request('group.switch', { gid: to.gid });
      expect(sw.code === '0', `group.switch ${JSON.stringify(sw)}`);
      await term.close();

      await page.goto(`${base}/log`);
      await page.waitForSelector('[data-testid=log-page]');
      const line = (type) => `[data-testid=log-panel] [data-testid=log-entry][data-type="${type}"][data-account="${T_SELF}"]`;
      const accepted = await until(async () => {
        const texts = await page.$$eval(line(140), (els) => els.map((e) => e.textContent ?? ''));
        return texts.find((s) => s.includes(task) && s.includes('accepted'));
      }, 'the acceptance in the live panel');
      expect(count(accepted, T_SELF) === 1, `the actor once: ${accepted}`);
      const switched = await until(async () => (await page.textContent(line(8)))?.includes(`switched to group ${to.name}`) && page.textContent(line(8)), 'the switch in the live panel');
      expect(count(switched, T_SELF) === 1, `the actor once: ${switched}`);
    },
  ],
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit((await run(oplogCases)) > 0 ? 1 : 0);
