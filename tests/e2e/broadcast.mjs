// Broadcast (issue 17): the console's /broadcast screen against the demo's simulated speakers (they register with
// the demo organisations' password, fetch and decode what they are told to play, and report it).
import { createHash } from 'node:crypto';
import { DISPATCHER, dispatcherConsole, expect, until } from './harness.mjs';
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
  const { page, base } = await dispatcherConsole(context);
  await page.goto(`${base}/broadcast`);
  await page.waitForSelector('[data-testid=broadcast-page]', { timeout: 30_000 });
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
];
