// Browser cases of issue 8 (safety): SOS alarms and lone-worker protection, against the real binary.
// Terminals are driven over the socket as docs/terminal-protocol.md says, each from a browser context of its own.
// They use demo terminals 10000152–10000155 (apps; 10000150/151 are left to the console cases, 10000158–160 are
// dispatcher positions). A terminal logging in replaces the demo fleet's connection of that account, and the fleet
// does not take it back (no reconnect after session.replaced).
import { BASE, DISPATCHER, dispatcherConsole, expect, until } from './harness.mjs';

const T = { sos: '10000152', remote: '10000153', lone: '10000154', child: '10000155' };

const signedIn = (context) => dispatcherConsole(context);

/** A REST call from the console page, with its token (the envelope comes back as is). */
function api(page, method, path, body) {
  return page.evaluate(
    async ([method, path, body]) => {
      const token = decodeURIComponent(document.cookie.match(/(?:^|; )token=([^;]+)/)?.[1] ?? '');
      const res = await fetch(path, {
        method,
        headers: { token, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    [method, path, body],
  );
}

/**
 * A terminal on the socket: logs in, answers every server request ("0" unless `answers` says otherwise), records
 * requests and events; request() sends one and resolves with the reply and the time it was sent.
 * The demo fleet simulates these accounts too: a simulated terminal that was off line when this one logged in
 * comes back later and replaces it (session.replaced). This one then logs in again — the simulator does not
 * reconnect after a replacement, so the account stays with the test.
 */
async function terminal(browser, uid, answers = {}) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${BASE}/healthz`);
  const reply = await page.evaluate(
    ([uid, answers]) => {
      const t = (window.__t = { next: 2, pending: {}, requests: [], events: [], answers, relogins: 0, closing: false });
      const connect = () =>
        new Promise((resolve) => {
          const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/ds/ws`);
          t.ws = ws;
          ws.onopen = () => ws.send(JSON.stringify({ id: 1, type: 'session.login', data: { uid, auth: '123456', client: 'terminal' } }));
          ws.onmessage = (m) => {
            const f = JSON.parse(m.data);
            if (f.re === 1) return resolve(f);
            if (typeof f.re === 'number') {
              t.pending[f.re]?.(f);
              delete t.pending[f.re];
              return;
            }
            if (typeof f.id === 'number') {
              t.requests.push({ ...f, at: Date.now() });
              ws.send(JSON.stringify({ re: f.id, type: f.type, code: t.answers[f.type] ?? '0' }));
              return;
            }
            t.events.push({ ...f, at: Date.now() });
          };
          ws.onclose = () => {
            if (t.closing || t.ws !== ws || t.relogins >= 10) return;
            t.relogins++;
            setTimeout(() => void connect(), 100);
          };
          ws.onerror = () => resolve({ code: 'socket error' });
          setTimeout(() => resolve({ code: 'no reply' }), 10_000);
        });
      return connect();
    },
    [uid, answers],
  );
  expect(reply.code === '0', `terminal ${uid} socket login answered ${JSON.stringify(reply)}`);
  const api = {
    uid,
    request: (type, data = {}) =>
      page.evaluate(
        ([type, data]) =>
          new Promise((resolve) => {
            const t = window.__t;
            const send = (attempt) => {
              const id = t.next++;
              const sentAt = Date.now();
              const timer = setTimeout(() => (attempt < 2 ? send(attempt + 1) : resolve({ code: 'no reply', sentAt })), 8_000);
              t.pending[id] = (f) => {
                clearTimeout(timer);
                resolve({ ...f, sentAt });
              };
              if (t.ws.readyState === 1) t.ws.send(JSON.stringify({ id, type, data }));
            };
            send(0);
          }),
        [type, data],
      ),
    requests: (type) => page.evaluate((type) => window.__t.requests.filter((f) => f.type === type), type),
    events: (type) => page.evaluate((type) => window.__t.events.filter((f) => f.type === type), type),
    relogins: () => page.evaluate(() => window.__t.relogins),
    close: async () => {
      await page.evaluate(() => {
        window.__t.closing = true;
        window.__t.ws.close();
      }).catch(() => {});
      await ctx.close();
    },
  };
  // A healthy device reports its battery and signal (the lone-work engine judges "weak signal" and "battery off"
  // on the last report; the account may carry a poor one from the demo fleet).
  const st = await api.request('status.report', { battery: 90, signal: 4 });
  expect(st.code === '0', `status.report answered ${JSON.stringify(st)}`);
  return api;
}

/** Records when each alarm first shows in the dialog and when the alarm sound starts playing. */
async function watchInterrupt(page) {
  await page.evaluate(() => {
    window.__shown = {};
    const mark = () =>
      document.querySelectorAll('[data-testid=alarm-detail][data-id]').forEach((el) => {
        window.__shown[el.dataset.id] ??= Date.now();
      });
    new MutationObserver(mark).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-id'] });
    window.__playingAt = 0;
    const hook = () => {
      const a = document.querySelector('audio[data-testid=alarm-sound]');
      if (a && !a.__hooked) {
        a.__hooked = true;
        window.__loops = 0;
        let last = 0;
        a.addEventListener('playing', () => {
          if (!a.muted) window.__playingAt ||= Date.now();
        });
        a.addEventListener('timeupdate', () => {
          if (a.currentTime < last && !a.paused) window.__loops++;
          last = a.currentTime;
        });
      }
    };
    hook();
    setInterval(hook, 20);
  });
}

const sound = (page) =>
  page.evaluate(() => {
    const a = document.querySelector('audio[data-testid=alarm-sound]');
    return a ? { state: a.dataset.state, leader: a.dataset.leader, paused: a.paused, time: a.currentTime, volume: a.volume } : null;
  });

/** A user gesture: browsers only let a page make sound after one (the console unlocks its alarm sound on it). */
const gesture = (page) => page.click('[data-testid=brand]');

async function findAlarm(page, a) {
  const r = await api(page, 'GET', `/ds/sos/findSos?sTime=${a.time}&eTime=${a.time}&msId=${a.msId}`);
  return r.result?.list?.find((x) => x.id === a.id);
}

async function closeQuietly(page, id) {
  await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 2, remark: 'e2e cleanup' }).catch(() => {});
}

const fill = async (page, testId, value) => {
  const el = page.locator(`input[data-testid=${testId}], [data-testid=${testId}] input`).first();
  await el.fill(String(value));
};

export const safetyCases = [
  [
    'SOS: a simulated SOS reaches the console within 1 s with the alarm sound playing; acknowledging stores state 1',
    async ({ browser, context }) => {
      const term = await terminal(browser, T.sos);
      const { page } = await signedIn(context);
      let id;
      try {
        await gesture(page);
        await watchInterrupt(page);
        const r = await term.request('sos.raise', { lat: 41.0082, lng: 28.9784, type: '0' });
        expect(r.code === '0', `sos.raise answered ${JSON.stringify(r)}`);
        id = r.data.id;
        await page.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"][data-state="0"]`, { timeout: 15_000 });
        const shownAfter = (await page.evaluate((id) => window.__shown[id], id)) - r.sentAt;
        expect(shownAfter <= 1000, `the alarm showed ${shownAfter} ms after the terminal sent it (limit 1000 ms)`);
        const playing = await until(async () => {
          const s = await sound(page);
          return s && s.state === 'playing' && !s.paused && s.time > 0.05 ? s : null;
        }, 'the alarm sound is playing', 15_000, 50);
        const playingAfter = (await page.evaluate(() => window.__playingAt)) - r.sentAt;
        expect(playingAfter <= 1000, `the sound started ${playingAfter} ms after the terminal sent the alarm (limit 1000 ms)`);
        expect(Math.abs(playing.volume - 0.6) < 0.01, `alarm volume ${playing.volume} (default 60)`);
        console.log(`     (terminal → dialog ${shownAfter} ms, → sound playing ${playingAfter} ms)`);
        expect((await page.textContent('[data-testid=alarm-detail]')).includes(T.sos), 'the dialog names the terminal');
        // It keeps ringing (looping) until acknowledged.
        await until(() => page.evaluate(() => window.__loops >= 1), 'the sound loops (0.96 s clip)', 10_000, 100);

        await page.click('[data-testid=alarm-ack]');
        const stored = await until(async () => {
          const a = (await api(page, 'GET', '/ds/sos/findSos?open=1')).result.list.find((x) => x.id === id);
          return a && a.state === 1 ? a : null;
        }, 'findSos shows the alarm acknowledged (state 1)');
        expect(stored.responder === DISPATCHER.uid && stored.responseTime >= stored.time, `responder ${stored.responder}, response ${stored.responseTime}`);
        await until(async () => (await sound(page)).state === 'idle' && (await sound(page)).paused, 'the sound stops once acknowledged');
        await until(async () => (await term.events('sos.acked')).some((e) => e.data.id === id), 'the terminal is told its alarm was acknowledged');
        // Acknowledged here: the dialog stays for the next steps until put aside.
        await page.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"][data-state="1"]`);
        await page.click('[data-testid=alarm-aside]');
        await page.waitForSelector('[data-testid=alarm-modal]', { state: 'detached' });
      } finally {
        if (id) await closeQuietly(page, id);
        await term.close();
      }
    },
  ],
  [
    'SOS: remote close with a remark reaches the terminal (sos.stop) and the record shows it in /alarm and /emergcy-alarm-data (xlsx export)',
    async ({ browser, context }) => {
      const term = await terminal(browser, T.remote);
      const { page, base } = await signedIn(context);
      let id;
      try {
        const r = await term.request('sos.raise', { type: '1' });
        expect(r.code === '0', `sos.raise answered ${JSON.stringify(r)}`);
        id = r.data.id;
        await page.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"]`, { timeout: 15_000 });
        await page.fill('[data-testid=alarm-remark]', 'E2E: worker reached by phone');
        await page.click('[data-testid=alarm-remote]');
        await page.click('[data-testid=alarm-close]');
        const stop = await until(async () => (await term.requests('sos.stop')).find((f) => f.data.id === id), 'the terminal receives sos.stop');
        expect(stop.data.by === DISPATCHER.uid, `sos.stop by ${stop.data.by}`);
        await page.waitForSelector('[data-testid=alarm-modal]', { state: 'detached', timeout: 10_000 });
        const a = await until(async () => {
          const x = await findAlarm(page, { id, time: r.data.time, msId: T.remote });
          return x && x.state === 2 ? x : null;
        }, 'the alarm is closed');
        expect(a.closeKind === 'remote' && a.remark === 'E2E: worker reached by phone' && a.closer === DISPATCHER.uid, `record ${JSON.stringify(a)}`);
        expect(a.responder === DISPATCHER.uid, 'closing an unacknowledged alarm makes the dispatcher its responder');
        await until(async () => (await term.events('sos.closed')).some((e) => e.data.id === id && e.data.kind === 'remote'), 'the terminal is told it was closed remotely');

        // /alarm: history of this month, filtered on the terminal.
        await page.goto(`${base}/alarm`);
        await page.click('.ant-tabs-tab:has-text("History")');
        await page.waitForSelector(`[data-testid=alarm-history] [data-testid=alarm-row][data-id="${id}"][data-state="2"]`, { timeout: 15_000 });
        const row = await page.textContent(`[data-testid=alarm-row][data-id="${id}"]`);
        expect(row.includes('Remote close') && row.includes('Man down') && row.includes('E2E: worker reached by phone'), `history row: ${row}`);

        // /emergcy-alarm-data and its export.
        await page.goto(`${base}/emergcy-alarm-data`);
        await page.waitForSelector(`[data-testid=emergency-data] [data-testid=alarm-row][data-id="${id}"]`, { timeout: 15_000 });
        const [download] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), page.click('[data-testid=history-export]')]);
        expect(/\.xlsx$/.test(download.suggestedFilename()), `export file ${download.suggestedFilename()}`);
        const file = await download.path();
        const { readFileSync } = await import('node:fs');
        const bytes = readFileSync(file);
        expect(bytes[0] === 0x50 && bytes[1] === 0x4b && bytes.length > 2000, `an .xlsx (zip) of ${bytes.length} bytes`);

        // /emergcy-alarm-report draws the day.
        await page.goto(`${base}/emergcy-alarm-report`);
        await until(async () => Number(await page.getAttribute('[data-testid=emergency-report-page]', 'data-rows')) > 0, 'the SOS report has rows');
        await page.waitForSelector('[data-testid=chart-day] canvas');
      } finally {
        if (id) await closeQuietly(page, id);
        await term.close();
      }
    },
    { timeoutMs: 150_000 },
  ],
  [
    'SOS in a child window: both windows show it, only one rings; acknowledged in the child, it leaves the main window',
    async ({ browser, context }) => {
      const term = await terminal(browser, T.child);
      const { page } = await signedIn(context);
      let id;
      try {
        await gesture(page);
        const [popup] = await Promise.all([context.waitForEvent('page'), page.evaluate(() => window.open('/alarm-child', 'alarm-child'))]);
        await popup.waitForSelector('[data-testid=alarm-page][data-socket=online]', { timeout: 20_000 });
        await until(async () => (await sound(popup)) !== null, 'the child window has its alarm sound element');
        const r = await term.request('sos.raise', { type: '3' });
        expect(r.code === '0', `sos.raise answered ${JSON.stringify(r)}`);
        id = r.data.id;
        await page.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"]`, { timeout: 15_000 });
        await popup.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"]`, { timeout: 15_000 });
        await until(async () => (await sound(page)).state === 'playing', 'the main window rings');
        const child = await sound(popup);
        expect(child.state === 'follower' && child.paused && child.leader === '0', `the child window stays silent: ${JSON.stringify(child)}`);
        await popup.waitForSelector(`[data-testid=open-row][data-id="${id}"]`);

        await popup.click('[data-testid=alarm-ack]');
        await page.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"]`, { state: 'detached', timeout: 10_000 });
        await until(async () => (await sound(page)).paused, 'the main window stops ringing');
        await popup.waitForSelector(`[data-testid=alarm-detail][data-id="${id}"][data-state="1"]`);
        await popup.waitForSelector(`[data-testid=open-row][data-id="${id}"][data-state="1"]`);
      } finally {
        if (id) await closeQuietly(page, id);
        await term.close();
      }
    },
    { timeoutMs: 120_000 },
  ],
  [
    'lone worker: the dialog enforces the rules; a worker who forgets to reply raises an alarm with reason forgot-to-reply',
    async ({ browser, context }) => {
      // The shortest plan the rules allow: checks every minute, 10 s to reply. The first prompt comes one interval
      // after the real start, the alarm when its countdown ends: about 71 s.
      const term = await terminal(browser, T.lone);
      const { page, base } = await signedIn(context);
      let planId;
      try {
        await page.goto(`${base}/lonework`);
        await page.waitForSelector('[data-testid=lonework-page][data-socket=online]', { timeout: 20_000 });
        await page.click('[data-testid=plan-new]');
        await page.waitForSelector('[data-testid=plan-dialog]');
        await fill(page, 'plan-duration', 0);
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector('[data-testid=plan-error-msIds][data-code="80"]');
        await page.waitForSelector('[data-testid=plan-error-duration][data-code="87"]');
        await fill(page, 'plan-duration', 1441);
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector('[data-testid=plan-error-duration][data-code="83"]');
        await fill(page, 'plan-duration', 5);
        await fill(page, 'plan-interval', 6);
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector('[data-testid=plan-error-interval][data-code="85"]');
        await fill(page, 'plan-interval', 1);
        await fill(page, 'plan-countdown', 61);
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector('[data-testid=plan-error-countdown]');
        await fill(page, 'plan-countdown', 10);
        await page.click('[data-testid=plan-terminals]');
        await page.keyboard.type(T.lone);
        await page.click(`.ant-select-item-option:has-text("${T.lone}")`);
        await page.click('.ant-modal-title:has-text("New lone work")'); // closes the dropdown
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector('[data-testid=plan-dialog]', { state: 'detached', timeout: 10_000 });
        const created = Date.now();

        const row = `[data-testid=plan-row][data-ms-id="${T.lone}"]`;
        await page.waitForSelector(`${row}[data-work-state="1"]`, { timeout: 20_000 });
        planId = await page.getAttribute(row, 'data-id');
        await page.waitForSelector(`${row} [data-testid=plan-countdown][data-kind=next]`);
        const left = Number(await page.getAttribute(`${row} [data-testid=plan-countdown]`, 'data-left'));
        expect(left > 40 && left <= 61, `next check in ${left} s`);

        // The prompt comes; the worker does not check in. The console shows the countdown, then the alarm.
        await page.waitForSelector(`${row} [data-testid=plan-countdown][data-kind=checkin]`, { timeout: 75_000 });
        const checks = await until(async () => {
          const r = await term.requests('lonework.check');
          return r.some((f) => String(f.data.workId) === planId) ? r : null;
        }, 'the terminal is prompted (lonework.check)', 10_000);
        expect(checks.length >= 1, 'prompted');
        const alarm = await page.waitForSelector(`[data-testid=alarm-detail][data-lone-id][data-ms-id="${T.lone}"]`, { timeout: 25_000 });
        expect((await alarm.getAttribute('data-reason')) === '5', `reason ${await alarm.getAttribute('data-reason')}`);
        expect((await alarm.textContent()).includes('Forgot to reply'), 'the dialog shows the reason');
        const took = Date.now() - created;
        await until(async () => (await page.getAttribute(row, 'data-status')) === '1' && Number(await page.getAttribute(row, 'data-alarms')) >= 1, 'the plan shows the alarm');

        // Handled from the interrupt with a remark; the plan's alarm list has it.
        await page.fill('[data-testid=alarm-lw-remark]', 'E2E: called, worker fine');
        await page.click('[data-testid=alarm-lw-handle]');
        await page.waitForSelector('[data-testid=alarm-modal]', { state: 'detached', timeout: 10_000 });
        await page.click(`${row} [data-testid=plan-alarms]`);
        const handled = await page.waitForSelector('[data-testid=lonework-alarm-row][data-reason="5"][data-handled="1"]', { timeout: 10_000 });
        expect((await handled.textContent()).includes('E2E: called, worker fine'), 'remark in the alarm list');
        console.log(`     (lone-work alarm ${Math.round(took / 1000)} s after the plan was set)`);
      } finally {
        if (planId) {
          await api(page, 'PUT', '/ds/loneWork/update', { id: planId, enabled: 0 }).catch(() => {});
          const alarms = await api(page, 'GET', `/ds/loneWork/findAlarm?ids=${planId}`).catch(() => null);
          for (const a of alarms?.result?.list ?? []) if (!a.handleTime) await api(page, 'PUT', '/ds/loneWork/updateAlarm', { id: a.id, remark: 'e2e cleanup' }).catch(() => {});
        }
        await term.close();
      }
    },
    { timeoutMs: 240_000 },
  ],
];
