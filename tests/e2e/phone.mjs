// Browser cases of issue 5 item 3: the phone web app at /app (installable PWA, mobile layout, terminal account),
// talking with a console page in a second browser context, SOS, location and messages. Real binary, Debian
// Chromium, fake microphone saying the speech fixture (see voice.mjs). Accounts 10000156/10000157 (app terminals).
import { api, expect, forwarder, until } from './harness.mjs';
import {
  DISPATCHER,
  MOBILE,
  PHONE_A,
  PHONE_B,
  consolePage,
  expectHeard,
  holding,
  listen,
  measure,
  phonePage,
  phoneSwitchGroup,
  talk,
  withContexts,
} from './voice.mjs';

const POSITION = { latitude: 41.0311, longitude: 28.9842 };

/**
 * A second console connection of the page's sign-in (as a child window has): sends socket requests the console UI
 * of other features would send (sms.send, param.set, group.switch) and records the events it receives.
 */
async function consoleSocket(page) {
  await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const token = decodeURIComponent(document.cookie.match(/(?:^|; )token=([^;]+)/)?.[1] ?? '');
        const s = (window.__cs = { next: 2, pending: {}, events: [] });
        const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/ds/ws`);
        s.ws = ws;
        ws.onopen = () => ws.send(JSON.stringify({ id: 1, type: 'session.login', data: { token, client: 'console' } }));
        ws.onmessage = (m) => {
          const f = JSON.parse(m.data);
          if (f.re === 1) return f.code === '0' ? resolve() : reject(new Error(`console socket login ${f.code}`));
          if (typeof f.re === 'number') {
            s.pending[f.re]?.(f);
            delete s.pending[f.re];
          } else s.events.push(f);
        };
        setTimeout(() => reject(new Error('console socket login timed out')), 15_000);
      }),
  );
  return {
    request: (type, data) =>
      page.evaluate(
        ([type, data]) =>
          new Promise((resolve) => {
            const s = window.__cs;
            const id = s.next++;
            s.pending[id] = resolve;
            s.ws.send(JSON.stringify({ id, type, data }));
          }),
        [type, data],
      ),
    events: (type) => page.evaluate((type) => window.__cs.events.filter((e) => e.type === type), type),
  };
}

export const phoneCases = [
  [
    'phone app: an installable PWA at /app (manifest, icons, service worker), mobile layout, six languages, a wrong password refused with code 2, a dispatcher account named as one (code 6)',
    () =>
      withContexts('phone-pwa', async (open) => {
        const base = await forwarder();
        const page = await (await open(MOBILE)).newPage();
        const res = await page.goto(`${base}/app`);
        expect(res.ok() && new URL(page.url()).pathname === '/app/', `/app → ${page.url()}`);
        await page.waitForSelector('[data-testid=phone-login]');
        const manifest = await page.evaluate(async () => {
          const href = document.querySelector('link[rel=manifest]').href;
          const m = await (await fetch(href)).json();
          const icons = [];
          for (const i of m.icons) {
            const r = await fetch(new URL(i.src, href));
            icons.push({ sizes: i.sizes, type: r.headers.get('content-type'), ok: r.ok, purpose: i.purpose });
          }
          return { ...m, icons };
        });
        expect(manifest.display === 'standalone' && manifest.start_url === '/app/' && manifest.scope === '/app/', `manifest ${JSON.stringify(manifest)}`);
        for (const size of ['192x192', '512x512'])
          expect(manifest.icons.some((i) => i.sizes === size && i.ok && i.type === 'image/png'), `icon ${size}: ${JSON.stringify(manifest.icons)}`);
        expect(manifest.icons.some((i) => i.purpose === 'maskable' && i.ok), 'maskable icon');
        const sw = await page.evaluate(() =>
          Promise.race([navigator.serviceWorker.ready.then((r) => r.scope), new Promise((r) => setTimeout(() => r('no service worker'), 15_000))]),
        );
        expect(sw.endsWith('/app/'), `service worker scope: ${sw}`);
        // The app's own bundle: no console entry script on the page.
        const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.src));
        expect(scripts.length === 1 && /\/assets\/app-/.test(scripts[0]), `scripts ${scripts.join(' ')}`);
        // Mobile layout: nothing wider than the phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scrolling');

        await page.fill('[data-testid=phone-account]', PHONE_A);
        await page.fill('[data-testid=phone-password]', '654321');
        await page.click('[data-testid=phone-submit]');
        const err = await page.waitForSelector('[data-testid=phone-login-error]', { timeout: 20_000 });
        expect((await err.getAttribute('data-code')) === '2', `code ${await err.getAttribute('data-code')}`);
        expect(/incorrect password/i.test(await err.textContent()), await err.textContent());
        // A dispatcher's account is named as such (code 6), not an "incorrect account number".
        await page.fill('[data-testid=phone-account]', DISPATCHER.uid);
        await page.fill('[data-testid=phone-password]', DISPATCHER.pwd);
        await page.click('[data-testid=phone-submit]');
        await page.waitForSelector('[data-testid=phone-login-error][data-code="6"]', { timeout: 20_000 });
        const dispatcherErr = await page.textContent('[data-testid=phone-login-error]');
        expect(/dispatcher account/i.test(dispatcherErr), dispatcherErr);

        await page.selectOption('[data-testid=phone-language]', 'ru-RU');
        await until(async () => (await page.textContent('[data-testid=phone-submit]')).includes('Войти'), 'sign-in button in Russian');
        expect((await page.getAttribute('html', 'lang')) === 'ru-RU', 'html lang');
        await page.selectOption('[data-testid=phone-language]', 'zh-CN');
        await until(async () => (await page.textContent('[data-testid=phone-submit]')).includes('登录'), 'sign-in button in Chinese');
        await page.reload();
        await page.waitForSelector('[data-testid=phone-login]');
        await until(async () => (await page.textContent('[data-testid=phone-submit]')).includes('登录'), 'the language is kept');
      }),
  ],
  [
    'phone ↔ console: the phone app talks and the console in a second context hears it (talker highlighted in the tree); the console talks and the phone hears it',
    () =>
      withContexts('phone-console', async (open) => {
        const phone = (await phonePage(await open(MOBILE), PHONE_A)).page;
        // The header's buttons draw the console's icon set, not emoji (empty boxes where no emoji font is installed).
        const header = await phone.$$eval('.p-top button', (bs) => bs.map((b) => ({ id: b.dataset.testid, icon: b.querySelector('svg[data-icon]')?.dataset.icon, text: b.textContent.trim() })));
        expect(header.length >= 4 && header.every((b) => b.icon && !/[^\x20-\x7e]/.test(b.text)), `header buttons ${JSON.stringify(header)}`);
        await phoneSwitchGroup(phone, 'Operations');
        const { page } = await consolePage(await open());
        await page.fill('[data-testid=tree-search] input', PHONE_A);
        const row = `[data-testid=terminal-row][data-cid="${PHONE_A}"]`;
        await page.waitForSelector(`${row}[data-online="1"]`, { timeout: 15_000 });

        const t0 = Date.now();
        const fromPhone = await talk(phone, '[data-testid=phone-ptt]', async () => {
          measure('phone press → talking (browser, incl. polling)', Date.now() - t0, 'ms');
          await until(async () => (await page.getAttribute(row, 'data-talking')) === '1', 'the phone is highlighted as talking in the tree', 10_000, 50);
          await page.waitForSelector(`[data-testid=call-row][data-talker="${PHONE_A}"]`, { timeout: 10_000 });
          return listen(page, 2500);
        });
        expectHeard(fromPhone, 'console hearing the phone');
        expect(fromPhone.playing.includes(PHONE_A), `the console played ${fromPhone.playing.join(',')}`);
        measure('console hearing the phone: packets in 2.5 s', fromPhone.packets, 'packets');
        await until(async () => (await page.getAttribute(row, 'data-talking')) === '0', 'the highlight ends with the burst');
        const access = await phone.evaluate(() => window.tenfourVoice.snapshot().ptt.accessMs);
        measure('phone access time press → grant (engine)', access, 'ms');

        // The console talks in the same group (the phone's talk group is the dispatcher's).
        const rowGroup = await page.getAttribute(`[data-testid=call-row][data-kind=group]`, 'data-call-id');
        expect(rowGroup, 'the group call is listed');
        await page.click('[data-testid=voice-dock] .vdock-title');
        const toPhone = await talk(page, '[data-testid=ptt-button]', async () => {
          await until(async () => (await phone.getAttribute('[data-testid=phone-talker]', 'data-talker')) === DISPATCHER.uid, 'the phone shows the dispatcher talking', 10_000, 50);
          return listen(phone, 2500);
        });
        expectHeard(toPhone, 'phone hearing the console');
        expect(toPhone.playing.includes(DISPATCHER.uid), `the phone played ${toPhone.playing.join(',')}`);
      }),
  ],
  [
    'phone app: SOS (long press) reaches the console; location at the interval the server sets; a dispatcher message lands in the inbox; a remote group switch applies',
    () =>
      withContexts('phone-sos', async (open) => {
        const phoneCtx = await open({ ...MOBILE, permissions: ['geolocation'], geolocation: POSITION });
        const phone = (await phonePage(phoneCtx, PHONE_B)).page;
        const { page } = await consolePage(await open());
        const cs = await consoleSocket(page);

        // Location: the first fix is reported at once, then every gpsInterval; param.set changes the interval.
        await phone.waitForSelector('[data-testid=phone-location][data-state=ok]', { timeout: 20_000 });
        await until(async () => Number(await phone.getAttribute('[data-testid=phone-location]', 'data-sent')) >= 1, 'a position report was sent');
        const pos = await until(async () => {
          const r = await api(page, 'GET', `/ds/data/findMsInfo?msId=${PHONE_B}`);
          const t = r.result?.terminal ?? r.result;
          return t && Math.abs(Number(t.lat) - POSITION.latitude) < 1e-4 && Math.abs(Number(t.lng) - POSITION.longitude) < 1e-4 ? t : null;
        }, 'the console sees the phone at its position', 15_000, 500);
        expect(pos, 'position');
        // 30 s by default; a server that stored another interval for this terminal sent it at login (param.set).
        const current = Number((await phone.textContent('[data-testid=phone-location]')).match(/(\d+) s/)?.[1]);
        expect(current > 0, `interval shown: ${await phone.textContent('[data-testid=phone-location]')}`);
        const next = current === 10 ? 15 : 10;
        const ps = await cs.request('param.set', { msId: PHONE_B, params: { gpsInterval: `${next}s` } });
        expect(ps.code === '0', `param.set ${JSON.stringify(ps)}`);
        await until(async () => (await phone.textContent('[data-testid=phone-location]')).includes(`${next} s`), `the phone reports every ${next} s now`);

        // A dispatcher's message: delivered, acknowledged, shown in the inbox.
        const text = `Report to gate 4 (${Date.now().toString(36)})`;
        const sms = await cs.request('sms.send', { msId: PHONE_B, content: text });
        expect(sms.code === '0' && sms.data.state === 'delivered', `sms.send ${JSON.stringify(sms)}`);
        await phone.waitForSelector('[data-testid=phone-unread]', { timeout: 10_000 });
        await phone.click('[data-testid=phone-inbox-button]');
        await phone.waitForSelector(`[data-testid=phone-message]:has-text("${text}")`);
        await phone.click('[data-testid=phone-inbox] button[aria-label=Close]');

        // A remote group switch by the dispatcher is applied and acknowledged.
        const before = await phone.getAttribute('[data-testid=phone-group]', 'data-gid');
        const groups = await phone.evaluate(() => [...document.querySelectorAll('[data-testid=phone-group]')].length);
        expect(groups === 1, 'group bar');
        const target = before === '1' ? '5' : '1';
        const sw = await cs.request('group.switch', { gid: target, msId: PHONE_B });
        expect(sw.code === '0', `remote switch ${JSON.stringify(sw)}`);
        await until(async () => (await phone.getAttribute('[data-testid=phone-group]', 'data-gid')) === target, 'the phone shows its new talk group');

        // SOS: a short press does nothing, a long press raises it.
        await holding(phone, '[data-testid=phone-sos]', () => new Promise((r) => setTimeout(r, 300)));
        expect(!(await phone.$('[data-testid=phone-sos-state]')), 'a short press raised an SOS');
        const t0 = Date.now();
        await holding(phone, '[data-testid=phone-sos]', () => phone.waitForSelector('[data-testid=phone-sos-state]', { timeout: 10_000 }));
        const state = await phone.waitForSelector('[data-testid=phone-sos-state][data-state=open]', { timeout: 15_000 });
        const id = await state.getAttribute('data-id');
        measure('SOS long press → alarm committed (incl. the 2 s hold)', Date.now() - t0, 'ms');
        const found = await until(async () => {
          const r = await api(page, 'GET', '/ds/sos/findSos?open=1');
          return r.result?.list?.find((a) => a.msId === PHONE_B && String(a.id) === id);
        }, 'the alarm is open on the console side', 10_000, 300);
        expect(found.type === '3', `alarm type ${found.type} (app button is 3)`);
        expect(Math.abs(found.lat - POSITION.latitude) < 1e-3, `alarm at the phone's position: ${found.lat},${found.lng}`);
        const alarms = await cs.events('sos.alarm');
        expect(alarms.some((e) => e.data.msId === PHONE_B && String(e.data.id) === id), 'the console socket got sos.alarm');
        // The dispatcher acknowledges: the phone shows help is coming; the worker cancels the false alarm.
        const ack = await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 1 });
        expect(ack.code === '0', `acknowledge ${JSON.stringify(ack)}`);
        await phone.waitForSelector('[data-testid=phone-sos-state][data-state=acked]', { timeout: 10_000 });
        await phone.click('[data-testid=phone-sos-cancel]');
        await phone.waitForSelector('[data-testid=phone-sos-state]', { state: 'detached', timeout: 10_000 });
        await until(async () => !(await api(page, 'GET', '/ds/sos/findSos?open=1')).result?.list?.some((a) => String(a.id) === id), 'the alarm is closed');
      }),
  ],
  [
    'phone app: a call arriving while a sheet is open comes to the front and one tap answers it',
    () =>
      withContexts('phone-call-front', async (open) => {
        const caller = (await phonePage(await open(MOBILE), PHONE_A)).page;
        const phone = (await phonePage(await open(MOBILE), PHONE_B)).page;
        await phone.click('[data-testid=phone-inbox-button]');
        await phone.waitForSelector('[data-testid=phone-inbox]');
        const { callId } = await caller.evaluate((uid) => window.tenfourVoice.invite('single', { msId: uid }), PHONE_B);
        const answer = await phone.waitForSelector(`[data-testid=phone-incoming][data-call-id="${callId}"] [data-testid=phone-answer]`, { timeout: 15_000 });
        // One tap where the Answer button is: it must be the button that gets it, not the sheet's backdrop.
        const box = await answer.boundingBox();
        const x = box.x + box.width / 2;
        const y = box.y + box.height / 2;
        const hit = await phone.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid, [x, y]);
        expect(hit === 'phone-answer', `the tap on Answer lands on ${hit}`);
        await phone.mouse.click(x, y);
        await phone.waitForSelector(`[data-testid=phone-call][data-call-id="${callId}"][data-state=connected]`, { timeout: 15_000 });
        await caller.waitForSelector(`[data-testid=phone-call][data-call-id="${callId}"][data-state=connected]`, { timeout: 15_000 });
        await caller.click('[data-testid=phone-hangup]');
        await phone.waitForSelector('[data-testid=phone-call]', { state: 'detached', timeout: 15_000 });
      }),
  ],
  [
    'phone app: idle it sends no audio (uplink under 1 kbit/s); talking still reaches the group',
    () =>
      withContexts('phone-uplink', async (open) => {
        const phone = (await phonePage(await open(MOBILE), PHONE_A)).page;
        const listener = (await phonePage(await open(MOBILE), PHONE_B)).page;
        await phoneSwitchGroup(phone, 'Operations');
        await phoneSwitchGroup(listener, 'Operations');
        /** The phone's outbound audio over a window of ms: bytes sent and kbit/s. */
        const uplink = (ms) =>
          phone.evaluate(async (ms) => {
            const sent = async () => (await window.tenfourVoice.link.outboundStats())?.bytesSent ?? 0;
            const b0 = await sent();
            const t0 = performance.now();
            await new Promise((r) => setTimeout(r, ms));
            const bytes = (await sent()) - b0;
            return { bytes, kbps: (bytes * 8) / (performance.now() - t0) };
          }, ms);
        const idle = await uplink(5000);
        measure('phone idle uplink (5 s window)', Math.round(idle.kbps * 100) / 100, 'kbit/s');
        expect(idle.kbps < 1, `idle uplink ${idle.kbps.toFixed(2)} kbit/s (${idle.bytes} bytes in 5 s)`);

        const talking = await talk(phone, '[data-testid=phone-ptt]', async () => {
          const [up, heard] = await Promise.all([uplink(2000), listen(listener, 2000)]);
          return { up, heard };
        });
        measure('phone uplink while talking', Math.round(talking.up.kbps), 'kbit/s');
        expect(talking.up.kbps > 8, `talking uplink ${talking.up.kbps.toFixed(1)} kbit/s`);
        expectHeard(talking.heard, 'the group hearing the phone');

        await until(async () => (await phone.getAttribute('[data-testid=phone-ptt]', 'data-phase')) === 'idle', 'the phone is idle again');
        await until(async () => (await uplink(300)).bytes === 0, 'the burst has left the phone');
        const after = await uplink(3000);
        expect(after.kbps < 1, `uplink after talking ${after.kbps.toFixed(2)} kbit/s`);
      }),
  ],
];
