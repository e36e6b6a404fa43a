// Issue 32: the console's first use — one page load, each API call once, a quiet browser console — and the
// dispatcher who is signed out by a sign-in elsewhere learning where and when, on the login page.
import { readFileSync } from 'node:fs';
import { DISPATCHER, dispatcherConsole, expect, forwarder, submitLogin, until } from './harness.mjs';

/** An API call's identity: method, path and query, without the cache-busting timestamp of /static/config.json. */
function callKey(req) {
  const u = new URL(req.url());
  u.searchParams.delete('t');
  return `${req.method()} ${u.pathname}${u.searchParams.size ? `?${u.searchParams}` : ''}`;
}

const isApi = (req) => /^\/(ds|static)\//.test(new URL(req.url()).pathname);

/**
 * Every warning and error the page logs (React's, the libraries' and the app's). Not counted: the software GPU's
 * driver notes of headless Chromium, and resources of other origins the test machine cannot reach (the map's
 * tiles: it has no internet).
 */
function consoleProblems(page) {
  const seen = [];
  const origin = () => new URL(page.url()).origin;
  page.on('console', (m) => {
    if (m.type() !== 'warning' && m.type() !== 'error') return;
    if (m.text().startsWith('[.WebGL-')) return;
    const at = m.location()?.url;
    if (m.text().startsWith('Failed to load resource') && at && !at.startsWith(origin())) return;
    seen.push(`${m.type()}: ${m.text().slice(0, 160)}${at ? ` (${at.slice(0, 80)})` : ''}`);
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message.slice(0, 160)}`));
  return seen;
}

/**
 * Every screen of the router a full load is checked on (the demo enables them all): the paths of
 * web/src/shared/access/routes.ts, read from it so that a screen added there is checked too.
 */
const SCREENS = [...readFileSync(new URL('../../web/src/shared/access/routes.ts', import.meta.url), 'utf8').matchAll(/\bpath: '(\/[^']*)'/g)].map((m) => m[1]);

export const startupCases = [
  [
    'first use: the sign-in stays in one page load, makes each API call once and logs no warning',
    async ({ context }) => {
      const base = await forwarder();
      const page = await context.newPage();
      const calls = new Map();
      page.on('request', (req) => isApi(req) && calls.set(callKey(req), (calls.get(callKey(req)) ?? 0) + 1));
      let loads = 0;
      page.on('load', () => loads++);
      // Every script of 1 KiB or more comes compressed (the build's .br/.gz copies, internal/app/console.go).
      const plain = [];
      // Read as each response arrives (headers() needs no round trip), so none is still pending at the check.
      page.on('response', (res) => {
        if (!/\/assets\/[^/]+\.js$/.test(new URL(res.url()).pathname)) return;
        const h = res.headers();
        const length = Number(h['content-length'] ?? Infinity); // a plain body without a length counts as large
        if (!h['content-encoding'] && length >= 1024) plain.push(`${res.url()} (${h['content-length'] ?? 'no length'})`);
      });
      const problems = consoleProblems(page);
      await submitLogin(page, base, DISPATCHER.uid, DISPATCHER.pwd);
      await page.waitForSelector('[data-testid=terminal-row]', { timeout: 30_000 });
      await page.waitForSelector('[data-testid=voice-dock][data-rtc=connected]', { timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      expect(/\/home\?v=/.test(page.url()), `landed on ${page.url()}`);
      expect(loads === 1, `${loads} page loads for one sign-in (the console loaded the page again after it)`);
      const twice = [...calls].filter(([, n]) => n > 1);
      expect(twice.length === 0, `API calls made more than once: ${twice.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
      expect(problems.length === 0, `browser console: ${problems.join(' | ')}`);
      expect(plain.length === 0, `scripts sent uncompressed: ${plain.join(', ')}`);
    },
  ],
  [
    'a full load of each screen logs no warning or error in the browser console',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      const problems = consoleProblems(page);
      for (const path of SCREENS) {
        await page.goto(`${base}${path}`);
        // The shell's screens are loaded once their socket is online; a child window and the patrol system's page
        // (no shell) once the network is idle.
        if (!path.endsWith('-child') && path !== '/patrol-sys') await page.waitForSelector('[data-testid=socket-status][data-status=online]', { timeout: 30_000 });
        await page.waitForLoadState('networkidle');
        expect(problems.length === 0, `${path}: ${problems.join(' | ')}`);
      }
    },
    { timeoutMs: 300_000 },
  ],
  [
    'signed out by a sign-in elsewhere: the login page says from which address and when',
    async ({ browser, context }) => {
      const { page } = await dispatcherConsole(context);
      // The same dispatcher signs in from another address (its own forwarder) in another browser.
      const other = await browser.newContext();
      try {
        const before = Date.now();
        await dispatcherConsole(other);
        await page.waitForSelector('[data-testid=login-page]', { timeout: 15_000 });
        const notice = await page.waitForSelector('[data-testid=login-signed-out][data-reason=replaced]', { timeout: 10_000 });
        const text = (await notice.textContent()) ?? '';
        expect(/127\.0\.0\.\d+/.test(text), `the notice names no address: ${text}`);
        const shown = await page.evaluate((t) => new Date(t).toLocaleString('en-US').split(',')[0], before);
        expect(text.includes(shown), `the notice names no time of ${shown}: ${text}`);
        // Shown once: a reload of the login page does not repeat it.
        await page.reload();
        await page.waitForSelector('[data-testid=login-page]');
        await until(async () => !(await page.$('[data-testid=login-signed-out]')), 'the notice gone after a reload', 5_000);
      } finally {
        await other.close().catch(() => {});
      }
    },
  ],
];
