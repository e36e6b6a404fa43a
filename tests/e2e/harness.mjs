// A very small browser-test harness: real Debian Chromium through playwright-core, one fresh browser context per
// case, and a TCP forwarder per case so each case reaches the real server from its own loopback address (the
// server throttles sign-ins per address; see internal/auth/throttle.go).
import net from 'node:net';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const BASE = (process.env.TENFOUR_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const target = new URL(BASE);

/**
 * The suite's browser: Chromium's headless shell (Debian's chromium-headless-shell, scripts/test-deps.sh): the same
 * engine as the desktop Chromium, without its shell, for a fifth less CPU on the same cases. CHROMIUM names another.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
];

let nextSource = 20;
const forwarders = [];

/** Listens on listenHost:random and forwards every connection to the server from a fresh 127.0.0.x address. */
export async function forwarder(listenHost = '127.0.0.1') {
  const localAddress = `127.0.0.${nextSource++}`;
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 80), localAddress });
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((resolve, reject) => server.listen(0, listenHost, resolve).on('error', reject));
  forwarders.push(server);
  return `http://${listenHost}:${server.address().port}`;
}

/** The demo's dispatcher (serve --demo), and the second customer's ("Second Tenant"). */
export const DISPATCHER = { uid: '10000001', pwd: '123456' };
export const OTHER_DISPATCHER = { uid: '20000001', pwd: '123456' };

/** Opens base/login and submits the sign-in form (what happens next is the caller's to check). */
export async function submitLogin(page, base, uid, pwd) {
  await page.goto(`${base}/login`);
  await page.waitForSelector('[data-testid=login-page]');
  await page.fill('[data-testid=login-account]', uid);
  await page.fill('[data-testid=login-password]', pwd);
  await page.click('[data-testid=login-submit]');
}

/** A new console page signed in as the demo dispatcher (or another): the dispatch screen is up and its socket online. */
export async function dispatcherConsole(context, base, account = DISPATCHER) {
  base ??= await forwarder();
  const page = await context.newPage();
  await submitLogin(page, base, account.uid, account.pwd);
  await page.waitForSelector('[data-testid=home-page]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid=socket-status][data-status=online]', { timeout: 20_000 });
  return { page, base };
}

/** dispatcherConsole opened at a screen: path, then the page of that test id shown (30 s at the most). */
export async function consoleAt(context, path, pageTestid) {
  const { page, base } = await dispatcherConsole(context);
  await page.goto(`${base}${path}`);
  await page.waitForSelector(`[data-testid=${pageTestid}]`, { timeout: 30_000 });
  return { page, base };
}

/** A REST call from a signed-in console page, with its token; resolves with the envelope as is. */
export function api(page, method, path, body) {
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

/** Demo accounts the quiet fleet never runs (left to cases and people): 10000150…10000176. */
const LEFT_TO_CASES = (cid) => Number(cid) >= 10000150 && Number(cid) <= 10000176;

/**
 * Waits until the quiet fleet has settled: every demo terminal it runs is online and has reported its one position
 * (it does nothing after that). The cases start only then, so none of them races the fleet's logins and reports
 * (log entries, presence, positions arriving while a case reads the same screen).
 */
export async function fleetSettled(browser) {
  const context = await browser.newContext();
  try {
    const { page } = await dispatcherConsole(context);
    await until(
      async () => {
        const r = await api(page, 'GET', '/ds/data/getGrpMsList?lastGps=1');
        const fleet = new Map();
        const walk = (g) => {
          // the SIP accounts (kind sip: phones that register over SIP, docs/sip.md) are not the fleet's
          for (const t of g.msList ?? []) if (String(t.type) !== '20' && t.kind !== 'sip' && !LEFT_TO_CASES(t.cid)) fleet.set(String(t.cid), t);
          (g.children ?? []).forEach(walk);
        };
        (r.result?.groups ?? []).forEach(walk);
        const waiting = [...fleet.values()].filter((t) => String(t.online) !== '1' || !Number(t.lastGps));
        return fleet.size > 0 && waiting.length === 0 ? fleet.size : false;
      },
      'the quiet fleet online with its positions',
      120_000,
      500,
    );
  } finally {
    await context.close().catch(() => {});
  }
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--mute-audio'] });
}

export function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/**
 * Clicks the item of the open dropdown menu (a context menu, the user menu) whose text contains `text`, once the
 * menu has settled. The menu opens with a motion that scales it from 0.8: an item's place read during it is above
 * where the item lands, and on a loaded machine the click then hit the item two rows up (a two-shard run here
 * switched a group instead of leaving it). The wait ends when the menu's motion classes are gone.
 */
export async function menuItem(page, text, options = {}) {
  const settled = '.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-enter"]):not([class*="-appear"])';
  await page.click(`${settled} .ant-dropdown-menu-item:has-text("${text}") >> visible=true`, options);
}

/**
 * Confirms the open Popconfirm (its primary button) once its opening motion is over: a click during the zoom can
 * land beside the moving button and be lost (the secret-key rotation once never happened, CI of 2026-12-01).
 */
export async function popConfirm(page, options = {}) {
  const settled = '.ant-popover:not(.ant-popover-hidden):not([class*="-enter"]):not([class*="-appear"])';
  await page.click(`${settled} .ant-popconfirm-buttons .ant-btn-primary >> visible=true`, options);
}

/** Polls fn until it returns a truthy value or the deadline passes (never a fixed sleep). */
export async function until(fn, message, timeoutMs = 15_000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${message} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
}

/**
 * Navigates inside the app (no reload), as the menu does, and waits until the new screen replaced the old one: the
 * old screen's elements are marked first, and the wait ends when none is left, a new one is there and the shell shows
 * no spinner, then two frames later (painted). The page itself watches, every 20 ms, so no round trip per look.
 */
export async function openInApp(page, path, timeoutMs = 20_000) {
  const rendered = await page.evaluate(
    ([p, timeoutMs]) =>
      new Promise((resolve) => {
        if (location.pathname !== p) {
          document.querySelectorAll('.shell-content [data-testid]').forEach((e) => (e.__stale = true));
          history.pushState({}, '', p);
          dispatchEvent(new PopStateEvent('popstate'));
        }
        const end = Date.now() + timeoutMs;
        const look = () => {
          const els = [...document.querySelectorAll('.shell-content [data-testid]')];
          if (location.pathname === p && !document.querySelector('.shell-spin') && els.length > 0 && els.every((e) => !e.__stale)) {
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
          } else if (Date.now() > end) {
            resolve(false);
          } else {
            setTimeout(look, 20);
          }
        };
        look();
      }),
    [path, timeoutMs],
  );
  expect(rendered, `${path} rendered`);
}

/**
 * Records every Content-Security-Policy violation of a context's pages (the server's CSP, issue 14 M6): the
 * binding survives navigations, so nothing a page reports before it navigates away is lost.
 */
export async function watchCsp(context) {
  const violations = [];
  await context.exposeBinding('__tenfourCspViolation', (_source, v) => violations.push(v));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__tenfourCspViolation?.(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile || location.pathname}:${e.lineNumber})`),
    ),
  );
  return violations;
}

/** Runs one case in a fresh context under the server's CSP; logs its line and resolves with whether it passed. */
async function runCase(browser, artifacts, [name, fn, opts = {}]) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, locale: 'en-US' });
  // Every case runs under the server's CSP: a violation fails the case like any other error.
  const csp = await watchCsp(context);
  const t0 = Date.now();
  try {
    await Promise.race([
      fn({ browser, context, csp }),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`case timed out after ${(opts.timeoutMs ?? 150_000) / 1000} s`)), opts.timeoutMs ?? 150_000)),
    ]);
    expect(csp.length === 0, `Content-Security-Policy violations: ${csp.join('; ')}`);
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    return true;
  } catch (e) {
    console.log(`FAIL ${name}: ${e instanceof Error ? e.message : e}`);
    const pages = context.pages();
    for (const [i, p] of pages.entries()) await p.screenshot({ path: `${artifacts}${name.replace(/\W+/g, '-')}-${i}.png` }).catch(() => {});
    return false;
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * The cases of this run's part (E2E_PART, set by scripts/e2e.sh): "i/n" is shard i of n — every n-th case that is not
 * serial, run beside the other shards, each shard on a server and a Chromium of its own; "serial" is the cases with
 * opts.serial (a time budget in ms: the SOS sound, a geofence alarm within 1 s, a camera's first frame), run alone
 * after the shards so that load never decides their verdict. Without E2E_PART: every case, the serial ones last.
 */
export function partOf(cases, part = process.env.E2E_PART) {
  const serial = cases.filter((c) => c[2]?.serial);
  const rest = cases.filter((c) => !c[2]?.serial);
  if (!part) return [...rest, ...serial];
  if (part === 'serial') return serial;
  const [i, n] = part.split('/').map(Number);
  expect(Number.isInteger(i) && n > 0 && i >= 0 && i < n, `E2E_PART ${part}: want i/n or serial`);
  // One shard: every case in the list's own order (cases leave state that later ones were written against), the
  // timed ones included; scripts/e2e.sh then runs no serial part.
  if (n === 1) return cases;
  return rest.filter((_, k) => k % n === i);
}

/**
 * Runs the cases of this part one after another. A case with opts.alongside runs beside the ones after it instead:
 * one that mostly waits out a real interval of the server, and touches nothing the others see (its own customer).
 * It names in opts.accounts the accounts it signs in as, and a later case naming one of them in its own
 * opts.accounts waits until it has ended: a second sign-in of a dispatcher replaces the first one's socket ("logged
 * in elsewhere"), and a lockout refuses it (a CI run lost the lone-work alarm when the multi-screen case signed the
 * second customer's dispatcher in while the lone-work console waited for it).
 */
export async function run(cases) {
  // E2E_ONLY: the cases whose name contains one of its '|'-separated parts.
  const only = process.env.E2E_ONLY?.split('|');
  const mine = partOf(cases).filter((c) => !only || only.some((part) => c[0].includes(part)));
  const label = process.env.E2E_PART ? `part ${process.env.E2E_PART}: ` : '';
  if (mine.length === 0) {
    console.log(`${label}0 passed, 0 failed`);
    return 0;
  }
  const browser = await launch();
  const artifacts = new URL('./artifacts/', import.meta.url).pathname;
  mkdirSync(artifacts, { recursive: true });
  // The serial part runs on shard 0's server after its shard, whose cases may have left a fleet terminal offline
  // (the fleet settled before that shard began).
  if (process.env.E2E_PART !== 'serial') await fleetSettled(browser);
  const results = [];
  const holding = []; // the alongside cases still running: { accounts, done }
  for (const c of mine) {
    const accounts = c[2]?.accounts ?? [];
    await Promise.all(holding.filter((h) => h.accounts.some((a) => accounts.includes(a))).map((h) => h.done));
    const done = runCase(browser, artifacts, c);
    results.push(done);
    if (!c[2]?.alongside) await done;
    else holding.push({ accounts, done });
  }
  const passed = (await Promise.all(results)).filter(Boolean).length;
  const failed = results.length - passed;
  await browser.close();
  forwarders.forEach((s) => s.close());
  console.log(`${label}${passed} passed, ${failed} failed`);
  return failed;
}
