// Broadcast (issue 17): the console's /broadcast screen against the demo's simulated speakers (they register with
// the demo organisations' password, fetch and decode what they are told to play, and report it).
import { createHash } from 'node:crypto';
import { DISPATCHER, consoleAt, expect, until } from './harness.mjs';
import { wav } from './files.mjs';

/**
 * A broadcast call from a signed-in console page: the broadcast service has its own token (docs/adr/0018), which
 * the page gets as the console does, POST /broadcast/v1/login {username, password: '{secret}'} with its session.
 */
function api(page, method, path, body) {
  return page.evaluate(
    async ([method, path, body]) => {
      const console = decodeURIComponent(document.cookie.match(/(?:^|; )token=([^;]+)/)?.[1] ?? '');
      const session = JSON.parse(localStorage.getItem('tenfour.session') ?? '{}');
      const account = session.state?.session?.account ?? '';
      const json = { Accept: 'application/json', 'Content-Type': 'application/json' };
      const login = await (await fetch('/broadcast/v1/login', {
        method: 'POST',
        headers: { ...json, token: console },
        body: JSON.stringify({ username: account, password: '{secret}' }),
      })).json();
      const res = await fetch(path, {
        method,
        headers: { ...json, token: login.result?.token ?? '' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    [method, path, body],
  );
}

const rows = (page, sel) => page.$$(`[data-testid=speaker-row]${sel}`);

/** A dispatcher's /broadcast screen once the demo's eight speakers are online. */
async function broadcastScreen(context) {
  const { page } = await consoleAt(context, '/broadcast', 'broadcast-page');
  await until(async () => (await rows(page, '[data-online="1"]')).length >= 8, 'the demo speakers online', 30_000);
  return page;
}

/** Selects the speaker of code and holds the paging button down (the caller releases it: page.mouse.up()). */
async function holdPageButton(page, code) {
  await page.check(`[data-testid=speaker-row][data-code="${code}"] input[type=checkbox]`);
  const button = await page.waitForSelector('[data-testid=page-button]:not([disabled])');
  const box = await button.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
}

export const broadcastCases = [
  [
    'broadcast: upload a file, play it from the real-time player on two speakers, and see both playing',
    async ({ context }) => {
      const page = await broadcastScreen(context);

      await page.getByRole('tab', { name: 'Library' }).click();
      const name = `e2e-${Date.now()}.wav`;
      await page.setInputFiles('[data-testid=broadcast-page] input[type=file]', { name, mimeType: 'audio/wav', buffer: wav(640_000, 440) });
      await page.waitForSelector(`[data-testid=music-row][data-name="${name}"]`, { timeout: 30_000 });

      const files = await api(page, 'GET', '/broadcast/v1/file?limit=1000');
      const file = files.result.list.find((f) => f.original_name === name);
      expect(file && file.length > 15_000, `uploaded file ${JSON.stringify(file)}`);
      const devices = await api(page, 'GET', '/broadcast/v1/device');
      const two = devices.result.list.filter((d) => d.online === 1).slice(0, 2).map((d) => d.id);
      const set = await api(page, 'PATCH', '/broadcast/v1/real_time_task', { file_ids: [file.id], device_ids: two, duration_type: 3 });
      expect(set.code === 200, `real-time task: ${JSON.stringify(set)}`);

      await page.getByRole('tab', { name: 'Real-time player' }).click();
      await page.click('[data-testid=player-start]');
      await page.waitForSelector('[data-testid=player][data-state="1"]', { timeout: 10_000 });
      await page.getByRole('tab', { name: 'Speakers' }).click();
      try {
        await until(async () => (await rows(page, '[data-state=playing]')).length === 2, 'two speakers report playing', 30_000);
        const text = await page.textContent('[data-testid=speaker-row][data-state=playing] [data-testid=speaker-playing]');
        expect(text?.includes(name), `the console shows what plays: ${text}`);
      } finally {
        await api(page, 'GET', '/broadcast/v1/real_time_task/stop');
      }
      await until(async () => (await rows(page, '[data-state=playing]')).length === 0, 'the speakers stop', 15_000);
    },
  ],
  [
    'broadcast: the real-time player stays current while it plays — its position moves and it shows the next file when the run gets there',
    async ({ context }) => {
      const { page } = await consoleAt(context, '/broadcast', 'broadcast-page');
      await page.getByRole('tab', { name: 'Library' }).click();
      const stamp = Date.now();
      const names = [`e2e-first-${stamp}.wav`, `e2e-second-${stamp}.wav`];
      for (const [i, name] of names.entries()) {
        await page.setInputFiles('[data-testid=broadcast-page] input[type=file]', { name, mimeType: 'audio/wav', buffer: wav(128_000, 440 + 110 * i) });
        await page.waitForSelector(`[data-testid=music-row][data-name="${name}"]`, { timeout: 30_000 });
      }
      const list = (await api(page, 'GET', '/broadcast/v1/file?limit=1000')).result.list;
      const [first, second] = names.map((n) => list.find((f) => f.original_name === n));
      const speaker = (await api(page, 'GET', '/broadcast/v1/device')).result.list[0].id; // a task plays on at least one
      const set = await api(page, 'PATCH', '/broadcast/v1/real_time_task', { file_ids: [first.id, second.id], device_ids: [speaker], duration_type: 1, loop: 1 });
      expect(set.code === 200, `real-time task: ${JSON.stringify(set)}`);
      await page.getByRole('tab', { name: 'Real-time player' }).click();
      try {
        await page.click('[data-testid=player-start]');
        const now = '[data-testid=player-now]';
        await page.waitForSelector(`${now}[data-file="${first.id}"]`, { timeout: 10_000 });
        const at = await page.textContent(now);
        await until(async () => (await page.textContent(now)) !== at, `the position moves on from "${at}"`, 5_000);
        // nothing but the run itself moves it to the second file: the server says so (broadcast.task)
        await page.waitForSelector(`${now}[data-file="${second.id}"]`, { timeout: 10_000 });
        expect((await page.textContent(now))?.includes(second.original_name), 'the player names the second file');
      } finally {
        await api(page, 'GET', '/broadcast/v1/real_time_task/stop');
        for (const f of [first, second]) await api(page, 'DELETE', `/broadcast/v1/file/${f.id}`);
      }
    },
  ],
  [
    'broadcast: holding the paging button sends the console microphone live to a selected speaker',
    async ({ context }) => {
      const page = await broadcastScreen(context);
      const devices = await api(page, 'GET', '/broadcast/v1/device');
      const target = devices.result.list.find((d) => d.online === 1 && d.reported?.state !== 'playing');
      await holdPageButton(page, target.code);
      try {
        await page.waitForSelector('[data-testid=page-button][data-paging="1"]');
        // the simulated speaker decodes the browser's Opus (pion/opus) and reports its level: every frame decoded,
        // and some of it above silence (Chrome's fake microphone beeps)
        let loudest = 0;
        await until(
          async () => {
            const r = await api(page, 'GET', '/broadcast/v1/device');
            const d = r.result.list.find((x) => x.id === target.id);
            if (d?.reported?.state !== 'live') return false;
            loudest = Math.max(loudest, d.reported.level ?? 0);
            return d.reported.packets >= 25 && d.reported.decoded === d.reported.packets && loudest > 0.001 && d;
          },
          'the speaker receives and decodes the console microphone',
          30_000,
        );
      } finally {
        await page.mouse.up();
      }
      await until(async () => {
        const r = await api(page, 'GET', '/broadcast/v1/device');
        return r.result.list.find((x) => x.id === target.id)?.reported?.state !== 'live';
      }, 'the page ends on release', 15_000);
    },
  ],
  [
    'broadcast: a live page that loses the microphone to another page shows it ended (broadcast.pageEnded)',
    async ({ context }) => {
      const page = await broadcastScreen(context);
      const devices = await api(page, 'GET', '/broadcast/v1/device');
      const [mine, other] = devices.result.list.filter((d) => d.online === 1 && d.reported?.state !== 'playing');
      // a caster of the same customer bound to this dispatcher, signed in with its own md5 login
      const code = `e2e-deputy-${Date.now()}`;
      const password = createHash('md5').update(`${code}-pw`).digest('hex');
      const made = await api(page, 'POST', '/broadcast/v1/caster', { name: 'Deputy', code, call_number: code, user_id: DISPATCHER.uid, password });
      expect(made.code === 200, `deputy caster: ${JSON.stringify(made)}`);
      await holdPageButton(page, mine.code);
      let deputy = '';
      try {
        await page.waitForSelector('[data-testid=page-button][data-paging="1"]');
        await until(async () => {
          const r = await api(page, 'GET', '/broadcast/v1/device');
          return r.result.list.find((x) => x.id === mine.id)?.reported?.state === 'live';
        }, 'the speaker is live', 15_000);
        const started = await page.evaluate(async ([code, password, device]) => {
          const json = { Accept: 'application/json', 'Content-Type': 'application/json' };
          const login = await (await fetch('/broadcast/v1/login', { method: 'POST', headers: json, body: JSON.stringify({ username: code, password }) })).json();
          const token = login.result?.token ?? '';
          const res = await fetch('/broadcast/v1/paging/start', { method: 'POST', headers: { ...json, token }, body: JSON.stringify({ device_ids: [device] }) });
          return { token, answer: await res.json() };
        }, [code, password, other.id]);
        deputy = started.token;
        expect(started.answer.code === 200, `the deputy's page: ${JSON.stringify(started.answer)}`);
        // the console still holds the button, yet shows at once that its page ended, and why
        await page.waitForSelector('[data-testid=page-ended][data-reason=replaced]', { timeout: 10_000 });
        await page.waitForSelector('[data-testid=page-button][data-paging="0"]', { timeout: 5_000 });
      } finally {
        await page.mouse.up();
        if (deputy) {
          await page.evaluate(async (token) => { await fetch('/broadcast/v1/paging/stop', { headers: { token } }); }, deputy);
        }
      }
    },
  ],
  [
    'broadcast: edit an organisation and a speaker from the console (PATCH), the dialogs prefilled, a taken code refused with its message',
    async ({ context }) => {
      const { page } = await consoleAt(context, '/broadcast', 'broadcast-page');
      const stamp = Date.now().toString(36);
      const org = await api(page, 'POST', '/broadcast/api/v1/org', { name: `E2E org ${stamp}`, code: `e2e-org-${stamp}`, call_number: `e2e${stamp}` });
      expect(org.code === 200, `organisation: ${JSON.stringify(org)}`);
      const made = await api(page, 'POST', '/broadcast/v1/device', { org_id: org.result.id, name: `E2E speaker ${stamp}`, code: `e2e-spk-${stamp}` });
      expect(made.code === 200, `speaker: ${JSON.stringify(made)}`);
      const taken = (await api(page, 'GET', '/broadcast/v1/device')).result.list.find((d) => d.id !== made.result.id)?.code;
      try {
        await page.reload();
        const row = `[data-testid=speaker-row][data-code="${made.result.code}"]`;
        await page.waitForSelector(row, { timeout: 20_000 });

        // the speaker: its dialog shows its name; a code another speaker has is refused (1002) and nothing is stored
        await page.click(`${row} [data-testid=speaker-edit]`);
        const name = '.ant-modal [data-testid=code-dialog-name]';
        await page.waitForSelector(name);
        expect((await page.inputValue(name)) === `E2E speaker ${stamp}`, `the dialog's name ${await page.inputValue(name)}`);
        await page.fill(name, `Renamed ${stamp}`);
        if (taken) {
          await page.fill('.ant-modal input#code', taken);
          await page.click('[data-testid=code-dialog-ok]');
          await page.waitForSelector('.ant-message:has-text("This code is already in use.")', { timeout: 10_000 });
          const kept = (await api(page, 'GET', '/broadcast/v1/device')).result.list.find((d) => d.id === made.result.id);
          expect(kept.name === `E2E speaker ${stamp}`, `a refused edit stored ${JSON.stringify(kept)}`);
          await page.fill('.ant-modal input#code', made.result.code);
        }
        await page.click('[data-testid=code-dialog-ok]');
        await until(async () => (await page.textContent(row))?.includes(`Renamed ${stamp}`), 'the row shows the new name', 10_000);

        // the organisation: selected in the tree, its dialog shows its name and call number; renamed
        await page.click(`.ant-tree-title:has-text("E2E org ${stamp}")`);
        await page.click('[data-testid=org-edit]');
        await page.waitForSelector(name);
        expect((await page.inputValue(name)) === `E2E org ${stamp}`, `the organisation dialog's name ${await page.inputValue(name)}`);
        expect((await page.inputValue('.ant-modal input#callNumber')) === `e2e${stamp}`, 'the organisation dialog shows the call number');
        await page.fill(name, `E2E wing ${stamp}`);
        await page.click('[data-testid=code-dialog-ok]');
        await page.waitForSelector(`.ant-tree-title:has-text("E2E wing ${stamp}")`, { timeout: 10_000 });
        const orgs = (await api(page, 'GET', '/broadcast/v1/org')).result.list;
        expect(orgs.find((o) => o.id === org.result.id)?.name === `E2E wing ${stamp}`, 'the organisation is renamed on the server');
      } finally {
        await api(page, 'DELETE', `/broadcast/v1/device/${made.result.id}`);
        await api(page, 'DELETE', `/broadcast/v1/org/${org.result.id}`);
      }
    },
  ],
];
