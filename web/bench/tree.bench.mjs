// Tree benchmark (not a timed test): builds bench/tree.html with the production Vite config, opens it in Debian
// Chromium and reports, for 10,000 terminals in 110 groups:
//   - first render: from loading the snapshot to the first painted frame, and the main-thread time it took;
//   - live updates: 1,000 presence updates per second for 10 s — main-thread time per frame (CDP TaskDuration /
//     frames drawn) and the frame rate. Target: under 16 ms per frame on average.
// Run: npm run bench (in web/).
import { build } from 'vite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failingOnPageError, serveAndLaunch } from './harness.mjs';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(tmpdir(), 'tenfour-tree-bench');
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

await build({ root, logLevel: 'warn', base: './', build: { outDir, emptyOutDir: true, rollupOptions: { input: join(root, 'bench/tree.html') } } });

const { url, browser, close } = await serveAndLaunch(outDir, 'bench/tree.html');

async function scenario(hideOffline) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value * 1000;
  page.on('crash', () => console.error('page crashed'));
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  await page.goto(url);
  await page.waitForFunction(() => !!window.bench);
  const before = await task();
  const mount = await failingOnPageError(page, () => page.evaluate(([n, h]) => window.bench.mount(n, h), [TERMINALS, hideOffline]));
  const mountTask = (await task()) - before;
  const t0 = await task();
  const upd = await failingOnPageError(page, () => page.evaluate(([r, s]) => window.bench.updates(r, s), [RATE, SECONDS]));
  const busy = (await task()) - t0;
  await page.close();
  return { mount, mountTask, upd, busy };
}

const fmt = (n) => n.toFixed(1);
for (const hideOffline of [false, true]) {
  const r = await scenario(hideOffline);
  const label = hideOffline ? 'hide offline ON (presence changes rebuild the tree)' : 'hide offline off';
  console.log(`tree bench — ${TERMINALS} terminals, ${r.mount.groups} groups, ${label}`);
  console.log(`  first render: ${fmt(r.mount.ms)} ms to first paint (snapshot normalise + tree build ${fmt(r.mount.dataMs)} ms, measured apart), ${r.mount.rows} rows in the DOM (virtualised)`);
  console.log(
    `  ${r.upd.events} presence updates in ${r.upd.seconds} s (${Math.round(r.upd.events / r.upd.seconds)}/s): ${r.upd.frames} frames (${fmt(r.upd.frames / r.upd.seconds)} fps), ` +
      `main thread ${fmt(r.busy / r.upd.frames)} ms per frame on average (${fmt((100 * r.busy) / (r.upd.seconds * 1000))} % busy)`,
  );
}
await close();
