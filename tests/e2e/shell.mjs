// Browser cases of issue 32 items 1, 3, 4 and 5: a console shell that never hides the dispatcher's next action.
// 1. one terminal action set (call, message, video call, monitor), the same on the info panel, the tree's menu and
//    the map card, in sight without scrolling at 1366×768; 3. a position carries its age and is marked stale past
//    10 minutes (alarm dialog, info panel, map card); 4. video panels never cover push-to-talk and close once their
//    call ends; 5. a video call from the field rings in a centred prompt with a desktop notification when hidden.
// Accounts: demo apps 10000165, 10000166, 10000172 and 10000173, which no other case uses.
import { api, dispatcherConsole, expect, until } from './harness.mjs';
import { terminal } from './terminal.mjs';
import { MOBILE, consolePage, phonePage, withContexts } from './voice.mjs';

const U = { actions: '10000166', stale: '10000165', monitor: '10000172', desk: '10000173' };
const SMALL_SCREEN = { width: 1366, height: 768 };

/** Finds a terminal in the tree and opens its info panel. */
async function pick(page, uid) {
  await page.fill('[data-testid=tree-search] input', uid);
  await page.click(`[data-testid=terminal-row][data-cid="${uid}"]`);
  await page.waitForSelector(`[data-testid=terminal-info][data-cid="${uid}"]`, { timeout: 15_000 });
}

/** The actions a place offers (data-action of each, in order). */
const actionsIn = (page, scope) => page.$$eval(`${scope} [data-action]`, (els) => els.map((e) => e.dataset.action));

/** Every button of the panel's action set is inside the viewport, unscrolled and on top (not covered). */
const inSight = (page, scope) =>
  page.$$eval(`${scope} [data-action]`, (els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const visible = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth && !!hit && el.contains(hit);
      return { action: el.dataset.action, visible, bottom: Math.round(r.bottom) };
    }),
  );

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export const shellCases = [
  [
    'shell: one terminal action set — call, message, video call, monitor — the same on the info panel, the tree menu and the map card, in sight at 1366×768',
    async ({ browser }) => {
      const context = await browser.newContext({ viewport: SMALL_SCREEN, locale: 'en-US' });
      try {
        const { page } = await dispatcherConsole(context);
        await pick(page, U.actions);
        const panel = `[data-testid=terminal-info][data-cid="${U.actions}"] [data-testid=terminal-actions]`;
        await page.waitForSelector(panel, { timeout: 10_000 });
        const set = await actionsIn(page, panel);
        expect(JSON.stringify(set) === JSON.stringify(['call', 'message', 'videoCall', 'monitor']), `the info panel offers ${set.join(', ')}`);
        const sight = await inSight(page, panel);
        expect(sight.every((s) => s.visible), `every action is in sight without scrolling at 1366×768: ${JSON.stringify(sight)}`);

        // The right-click menu opens with the same set.
        await page.click(`[data-testid=terminal-row][data-cid="${U.actions}"]`, { button: 'right' });
        const menu = '.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu';
        await page.waitForSelector(`${menu} [data-action]`, { timeout: 10_000 });
        const menuSet = await actionsIn(page, menu);
        expect(JSON.stringify(menuSet) === JSON.stringify(set), `the tree menu offers ${menuSet.join(', ')}, the panel ${set.join(', ')}`);
        await page.keyboard.press('Escape');

        // The map card too; its message action opens the terminal's conversation.
        await page.goto(`${new URL(page.url()).origin}/monitoring?msId=${U.actions}`);
        const card = `[data-testid=map-terminal-card][data-cid="${U.actions}"] [data-testid=terminal-actions]`;
        await page.waitForSelector(card, { timeout: 45_000 }); // the map screen's first load is the heaviest
        const cardSet = await actionsIn(page, card);
        expect(JSON.stringify(cardSet) === JSON.stringify(set), `the map card offers ${cardSet.join(', ')}, the panel ${set.join(', ')}`);
        await page.click(`${card} [data-action=message]`);
        await until(() => new URL(page.url()).pathname === '/message' && new URL(page.url()).searchParams.get('msId') === U.actions, 'message opens the conversation');
      } finally {
        await context.close().catch(() => {});
      }
    },
  ],
  [
    'shell: an SOS from a phone without location shows its last fix with that fix\'s age, marked stale past 10 minutes — alarm dialog, info panel, map card',
    async ({ context }) => {
      const term = await terminal(U.stale, { status: { battery: 90, signal: 4 } });
      const { page } = await dispatcherConsole(context);
      let id;
      try {
        // A fix (committed before the reply), then, some seconds later, an SOS without a position: location denied.
        const fixAt = Date.now();
        const r = await term.report({ lat: 41.0151, lng: 28.9795, time: fixAt });
        expect(r.code === '0', `gps.report answered ${JSON.stringify(r)}`);
        await until(() => Date.now() - fixAt > 8000, 'the fix is 8 s old', 10_000, 200);
        // The console's clock 30 minutes on: the fix it shows is then 30 minutes old (the server's clock stays).
        const shift = 30 * 60_000;
        await page.clock.setFixedTime(Date.now() + shift);
        const s = await term.request('sos.raise', { type: '0' });
        expect(s.code === '0', `sos.raise answered ${JSON.stringify(s)}`);
        id = s.data.id;
        const detail = `[data-testid=alarm-detail][data-id="${id}"]`;
        await page.waitForSelector(`${detail} [data-testid=position]`, { timeout: 15_000 });
        const shown = await page.$eval(`${detail} [data-testid=position]`, (el) => ({ stale: el.dataset.stale, age: Number(el.dataset.ageMs), text: el.textContent, now: Date.now() }));
        expect(shown.stale === '1', `the alarm dialog marks the position stale: ${JSON.stringify(shown)}`);
        // Aged from the fix, not from the alarm (8 s later).
        expect(Math.abs(shown.age - (shown.now - fixAt)) < 3000, `the alarm dialog ages the position from its fix: ${JSON.stringify(shown)}, fix at ${fixAt}`);
        expect(/30 minutes ago/.test(shown.text), `the age is written out: ${shown.text}`);
        await page.click('[data-testid=alarm-ack]');
        await page.click('[data-testid=alarm-aside]');
        await page.waitForSelector('[data-testid=alarm-modal]', { state: 'detached' });

        // The same rule on the info panel and the map card.
        await pick(page, U.stale);
        const info = await page.waitForSelector('[data-testid=terminal-info] [data-testid=position][data-stale="1"]', { timeout: 10_000 });
        expect(/30 minutes ago/.test(await info.textContent()), 'the info panel writes the age out');
        await page.goto(`${new URL(page.url()).origin}/monitoring?msId=${U.stale}`);
        const card = `[data-testid=map-terminal-card][data-cid="${U.stale}"] [data-testid=position]`;
        await page.waitForSelector(`${card}[data-stale="1"] [data-testid=position-stale]`, { timeout: 45_000 });

        // Back on the real time, the same fix is current.
        await page.clock.setFixedTime(Date.now());
        await page.waitForSelector(`${card}[data-stale="0"]`, { timeout: 20_000 });
        expect((await page.$(`${card} [data-testid=position-stale]`)) === null, 'a current position has no stale mark');
      } finally {
        if (id) await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 2, remark: 'e2e cleanup' }).catch(() => {});
        await term.close();
      }
    },
  ],
  [
    'shell: video monitoring stands clear of push-to-talk at 1366×768 and its window closes itself once stopped, on every page',
    () =>
      withContexts('shell-vc-dock', async (open) => {
        await phonePage(await open(MOBILE), U.monitor);
        const { page: con } = await consolePage(await open({ viewport: SMALL_SCREEN }));
        await pick(con, U.monitor);
        await con.click('[data-testid=terminal-info] [data-testid=video-monitor]');
        const session = '[data-testid=videocall-session][data-kind=monitor]';
        await con.waitForSelector(`${session}[data-state=connected]`, { timeout: 15_000 });
        const panel = await (await con.$(session)).boundingBox();
        const dock = await (await con.$('[data-testid=voice-dock]')).boundingBox();
        expect(!overlaps(panel, dock), `the video panel ${JSON.stringify(panel)} stays off the voice dock ${JSON.stringify(dock)}`);
        const ptt = await con.$eval('[data-testid=ptt-button]', (el) => {
          const r = el.getBoundingClientRect();
          return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
        });
        expect(ptt, 'push-to-talk is on top, not covered');

        // Stopped: the ended state shows briefly, then the window is gone — and stays gone on another page.
        await con.click(`${session} [data-testid=videocall-hangup]`);
        await con.waitForSelector(session, { state: 'detached', timeout: 10_000 });
        await con.goto(`${new URL(con.url()).origin}/monitoring`);
        await con.waitForSelector('[data-testid=map-page]', { timeout: 20_000 });
        expect((await con.$('[data-testid=videocall-session]')) === null, 'no ended video window lingers on the next page');
      }),
  ],
  [
    'shell: a video call from the field rings in a centred prompt with a desktop notification while the console tab is hidden',
    () =>
      withContexts('shell-vc-incoming', async (open) => {
        const ctx = await open();
        await ctx.addInitScript(() => {
          // Desktop notifications as granted, recorded; the tab's visibility under the case's control.
          window.__notes = [];
          window.Notification = class {
            static permission = 'granted';
            static requestPermission = () => Promise.resolve('granted');
            constructor(title, opts = {}) {
              window.__notes.push({ title, body: opts.body, tag: opts.tag, sticky: !!opts.requireInteraction });
            }
            close() {}
          };
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
          Object.defineProperty(document, 'hidden', { configurable: true, get: () => !!window.__hidden });
          window.__setHidden = (h) => {
            window.__hidden = h;
            document.dispatchEvent(new Event('visibilitychange'));
          };
        });
        const { page: con } = await consolePage(ctx);
        const { page: phone } = await phonePage(await open(MOBILE), U.desk);
        await con.evaluate(() => window.__setHidden(true));
        await phone.click('[data-testid=phone-video-call]');
        const row = `.ant-modal [data-testid=videocall-incoming]`;
        await con.waitForSelector(row, { timeout: 15_000 });
        const box = await con.$eval(row, (el) => {
          const r = el.closest('.ant-modal').getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        });
        const view = con.viewportSize();
        const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        expect(Math.abs(centre.x - view.width / 2) < view.width * 0.1 && centre.y < view.height * 0.75, `the prompt is centred: ${JSON.stringify(box)}`);
        expect((await con.$eval(row, (el) => el.dataset.ringing)) === '1', 'the prompt rings');
        const notes = await until(() => con.evaluate(() => window.__notes.length && window.__notes), 'a desktop notification while hidden', 10_000);
        expect(notes.length === 1 && notes[0].sticky && notes[0].title.includes('is video calling'), `one sticky notification: ${JSON.stringify(notes)}`);

        await con.evaluate(() => window.__setHidden(false));
        await con.click(`${row} [data-testid=videocall-answer]`);
        await con.waitForSelector('[data-testid=videocall-session][data-state=connected]', { timeout: 15_000 });
        await con.waitForSelector(row, { state: 'detached', timeout: 5_000 });
        await phone.click('[data-testid=phone-video-hangup]');
        await con.waitForSelector('[data-testid=videocall-session]', { state: 'detached', timeout: 10_000 });
      }),
  ],
];
