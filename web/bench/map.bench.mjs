// Map benchmark (issue 6 "Done when"): builds bench/map.html with the production Vite config, opens it in Debian
// Chromium and puts 10,000 terminals on the real map (MapView + TerminalsLayer, clustered) while 1,000 positions per
// second arrive as `gps` batches every 250 ms through the dispatch store. Reports, per zoom level:
//   - the average frame time (requestAnimationFrame intervals; target under 16 ms) and its 95th percentile;
//   - main-thread time per frame (CDP TaskDuration / frames drawn), i.e. what the page itself costs.
// Tiles are unreachable here, so the offline basemap is what is drawn under the terminals.
// Run: node bench/map.bench.mjs (in web/). BENCH_TERMINALS, BENCH_RATE, BENCH_SECONDS override the defaults;
// BENCH_ZOOMS=15 runs one zoom; BENCH_PROFILE=1 builds unminified (MapLibre's dev bundle) and prints where the main
// thread went during the updates (CDP CPU profile, self time per function).
import { build } from 'vite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failingOnPageError, serveAndLaunch } from './harness.mjs';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(tmpdir(), 'tenfour-map-bench');
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ZOOMS = (process.env.BENCH_ZOOMS ?? '11,15').split(',').map(Number);
const PROFILE = !!process.env.BENCH_PROFILE;

await build({
  root,
  logLevel: 'warn',
  base: '/',
  ...(PROFILE && { resolve: { alias: [{ find: /^maplibre-gl$/, replacement: join(root, 'node_modules/maplibre-gl/dist/maplibre-gl-dev.mjs') }] } }),
  build: { outDir, emptyOutDir: true, minify: !PROFILE, rollupOptions: { input: join(root, 'bench/map.html') } },
});

const { url, browser, close } = await serveAndLaunch(outDir, 'bench/map.html');

async function scenario(zoom) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort('internetdisconnected'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value * 1000;
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  await page.goto(url);
  await page.waitForFunction(() => !!window.mapBench);
  const mount = await failingOnPageError(page, () => page.evaluate(([n, z]) => window.mapBench.mount(n, z), [TERMINALS, zoom]));
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const t0 = await task();
  const upd = await failingOnPageError(page, () => page.evaluate(([r, s]) => window.mapBench.updates(r, s), [RATE, SECONDS]));
  const busy = (await task()) - t0;
  const profile = PROFILE ? (await cdp.send('Profiler.stop')).profile : undefined;
  await page.close();
  return { mount, upd, busy, profile };
}

/** Self and total time per function of a CDP CPU profile, the largest first. */
function topSelf(profile, n = 25) {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const parent = new Map();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const name = (node) => {
    const f = node.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  };
  const self = new Map();
  const incl = new Map();
  const dt = profile.timeDeltas;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (dt[i] ?? 0) / 1000;
    total += ms;
    const key = name(byId.get(profile.samples[i]));
    self.set(key, (self.get(key) ?? 0) + ms);
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) seen.add(name(byId.get(id)));
    for (const k of seen) incl.set(k, (incl.get(k) ?? 0) + ms);
  }
  const idle = self.get('(idle) :0') ?? 0;
  console.log(`  profile: ${fmt(total)} ms sampled, ${fmt(total - idle)} ms not idle; self time:`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`    ${fmt(ms).padStart(8)} ms  ${k}`);
  console.log('  total time:');
  for (const [k, ms] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, n + 15)) console.log(`    ${fmt(ms).padStart(8)} ms  ${k}`);
}

function fmt(n) {
  return n.toFixed(1);
}
for (const zoom of ZOOMS) {
  const r = await scenario(zoom);
  console.log(`map bench — ${r.mount.count} terminals on the map at zoom ${zoom} (${zoom < 15 ? 'mostly clustered' : 'mostly single markers'}), first draw ${fmt(r.mount.ms)} ms`);
  console.log(
    `  ${r.upd.positions} positions in ${r.upd.seconds} s (${Math.round(r.upd.positions / r.upd.seconds)}/s), ${r.upd.flushes} source updates: ` +
      `${r.upd.frames} frames, average frame time ${fmt(r.upd.avgFrameMs)} ms (p95 ${fmt(r.upd.p95FrameMs)} ms, ${r.upd.longFrames} over 50 ms), ` +
      `main thread ${fmt(r.busy / r.upd.frames)} ms per frame (${fmt((100 * r.busy) / (r.upd.seconds * 1000))} % busy)`,
  );
  if (r.profile) topSelf(r.profile);
}
await close();
