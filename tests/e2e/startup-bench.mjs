// `make bench` rows "first use" (issue 32; internal/bench/startup.go runs this against a fresh demo server): RUNS
// fresh browser contexts (each a cold cache), each one: open /login and time until the form can be used, sign in
// as the demo dispatcher and time from the click to the first terminal row and to voice connected, count the
// requests after the click — those it starts and those still under way when it comes, such as the login page's
// preload of the console — (and the API calls made more than once), then reload the dispatch screen and time from
// the reload to voice connected again (a warm cache). Times are taken in the page (Date.now() when a
// MutationObserver first sees the element), so Playwright's round trips are not in them. Prints BENCH lines with
// the median of the runs, and a WHERE line per run with the milestones on the way (how the time went);
// STARTUP_LIST=1 also lists the requests after the click.
import { DISPATCHER, fleetSettled, forwarder, launch } from './harness.mjs';

const runs = Number(process.env.RUNS ?? 3);
const SETTLE_MS = 1500; // quiet time after the last milestone before the requests are counted as done

/** The milestones, as CSS selectors; the first time each is seen is recorded with the page's clock. */
const WATCH = {
  login: '[data-testid=login-submit]:not([disabled])',
  home: '[data-testid=home-page]',
  online: '[data-testid=socket-status][data-status=online]',
  row: '[data-testid=terminal-row]',
  voice: '[data-testid=voice-dock][data-rtc=connected]',
};

function observe(watch) {
  const seen = new Set();
  const splashGone = () => {
    const s = document.getElementById('boot-splash');
    return !s || getComputedStyle(s).pointerEvents === 'none' || getComputedStyle(s).visibility === 'hidden';
  };
  const check = () => {
    for (const [name, sel] of Object.entries(watch)) {
      if (seen.has(name) || !document.querySelector(sel)) continue;
      if (name === 'login' && !splashGone()) continue; // the loading screen still covers the form
      seen.add(name);
      window.__startupMark(name, Date.now(), performance.now());
    }
  };
  document.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid=login-submit]')) window.__startupMark('click', Date.now(), performance.now());
  }, true);
  const start = () => {
    new MutationObserver(check).observe(document.documentElement, { subtree: true, childList: true, attributes: true });
    check();
  };
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** An API call's identity: method and path with its query, the cache-busting timestamp parameters left out. */
function callKey(req) {
  const u = new URL(req.url());
  for (const k of [...u.searchParams.keys()]) if (/^(t|_|ts|timestamp)$/.test(k) || /^\d{10,}$/.test(u.searchParams.get(k))) u.searchParams.delete(k);
  return `${req.method()} ${u.pathname}${u.searchParams.size ? `?${u.searchParams}` : ''}`;
}

function isApi(req) {
  const p = new URL(req.url()).pathname;
  return p.startsWith('/ds/') || p.startsWith('/static/') || p.endsWith('.json') && !p.startsWith('/assets/');
}

async function until(fn, what, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (fn()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what} not within ${timeoutMs / 1000} s`);
}

async function oneRun(browser) {
  const base = await forwarder();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  try {
    let marks = {};
    await context.exposeBinding('__startupMark', (_src, name, at, sinceNav) => {
      marks[name] ??= { at, sinceNav };
    });
    await context.addInitScript(observe, WATCH);
    const requests = [];
    const page = await context.newPage();
    page.on('request', (req) => requests.push({ at: Date.now(), req }));
    // When each request ended: one still under way at the click is the sign-in's to wait for as well.
    const ended = new Map();
    for (const ev of ['requestfinished', 'requestfailed']) page.on(ev, (req) => ended.set(req, Date.now()));
    const warnings = [];
    page.on('console', (m) => (m.type() === 'warning' || m.type() === 'error') && warnings.push(m.text().slice(0, 120)));
    let loads = 0;
    page.on('load', () => loads++);

    await page.goto(`${base}/login`);
    await until(() => marks.login, '/login usable', 30_000);
    const loginMs = marks.login.sinceNav;

    await page.fill('[data-testid=login-account]', DISPATCHER.uid);
    await page.fill('[data-testid=login-password]', DISPATCHER.pwd);
    const loadsBefore = loads;
    const clickWall = Date.now();
    await page.click('[data-testid=login-submit]');
    await until(() => marks.row && marks.voice, 'first terminal row and voice connected', 60_000);
    const click = marks.click?.at ?? clickWall;
    const settled = Math.max(marks.row.at, marks.voice.at);
    await until(() => Date.now() - Math.max(settled, requests.at(-1)?.at ?? 0) > SETTLE_MS, 'the network quiet', 30_000);
    // The requests after the click: those the click started and those still under way when it came (the login
    // page's preload of the console not yet done); a preload that finished before the click is not counted.
    const after = requests.filter((r) => r.at >= clickWall || (ended.get(r.req) ?? Infinity) > clickWall);
    if (process.env.STARTUP_LIST) for (const r of after) console.log(`  after click: ${r.at >= clickWall ? 'started' : 'in flight'} ${r.req.resourceType()} ${new URL(r.req.url()).pathname}`);
    // Each API call once over the whole first use, the login page's calls included.
    const counts = new Map();
    for (const r of requests.filter((r) => isApi(r.req))) counts.set(callKey(r.req), (counts.get(callKey(r.req)) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    const since = (m) => (marks[m] ? Math.round(marks[m].at - click) : -1);
    const signIn = {
      home: marks.home.at - click,
      row: marks.row.at - click,
      voice: marks.voice.at - click,
      requests: after.length,
      scripts: after.filter((r) => r.req.resourceType() === 'script').length,
      api: counts.size,
      twice,
      loads: loads - loadsBefore,
      where: `home +${since('home')} online +${since('online')} row +${since('row')} voice +${since('voice')}`,
    };

    // A reload of the dispatch screen (warm cache, the same sign-in).
    marks = {};
    await page.reload();
    await until(() => marks.voice, 'voice connected after a reload', 30_000);
    const reload = { home: marks.home?.sinceNav ?? NaN, voice: marks.voice.sinceNav, where: `home ${Math.round(marks.home?.sinceNav ?? -1)} online ${Math.round(marks.online?.sinceNav ?? -1)} voice ${Math.round(marks.voice.sinceNav)}` };
    return { loginMs, signIn, reload, warnings };
  } finally {
    await context.close().catch(() => {});
  }
}

const browser = await launch();
try {
  await fleetSettled(browser); // the demo fleet's logins and reports are over before anything is timed
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await oneRun(browser);
    results.push(r);
    console.log(
      `WHERE run ${i + 1}: login ${r.loginMs.toFixed(0)} ms; sign-in ${r.signIn.where}; ${r.signIn.requests} requests (${r.signIn.scripts} scripts, ${r.signIn.api} API calls, ` +
        `${r.signIn.loads} page loads)${r.signIn.twice.length ? `; twice: ${r.signIn.twice.map(([k, n]) => `${k} ×${n}`).join(', ')}` : ''}; reload ${r.reload.where}` +
        `${r.warnings.length ? `; console: ${r.warnings.join(' | ')}` : ''}`,
    );
  }
  const med = (f) => median(results.map(f));
  console.log(`BENCH startup_login_ms ${med((r) => r.loginMs).toFixed(1)}`);
  console.log(`BENCH startup_home_ms ${med((r) => r.signIn.home).toFixed(1)}`);
  console.log(`BENCH startup_row_ms ${med((r) => r.signIn.row).toFixed(1)}`);
  console.log(`BENCH startup_voice_ms ${med((r) => r.signIn.voice).toFixed(1)}`);
  console.log(`BENCH startup_reload_home_ms ${med((r) => r.reload.home).toFixed(1)}`);
  console.log(`BENCH startup_reload_voice_ms ${med((r) => r.reload.voice).toFixed(1)}`);
  console.log(`BENCH startup_requests ${med((r) => r.signIn.requests)}`);
  console.log(`BENCH startup_scripts ${med((r) => r.signIn.scripts)}`);
  console.log(`BENCH startup_twice ${Math.max(...results.map((r) => r.signIn.twice.length))}`);
  console.log(`BENCH startup_page_loads ${Math.max(...results.map((r) => r.signIn.loads))}`);
  console.log(`BENCH startup_console_messages ${Math.max(...results.map((r) => r.warnings.length))}`);
  console.log(`BENCH startup_n ${results.length}`);
} finally {
  await browser.close().catch(() => {});
}
process.exit(0); // the forwarders keep the event loop alive
