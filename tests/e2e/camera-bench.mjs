// `make bench` row "camera click → first decoded frame in Chromium" (internal/bench/camera.go runs it against a
// fresh demo server): the demo dispatcher opens /video-surveillance, the camera is pulled already (a warm
// surveillance wall), then CLICKS times: clear the tile, click Show, and time in the page from the click to the
// first video frame presented with videoWidth > 0 (requestVideoFrameCallback). Prints BENCH lines.
import { api, dispatcherConsole, launch, until } from './harness.mjs';

const clicks = Number(process.env.CLICKS ?? 20);
const browser = await launch();
try {
  const context = await browser.newContext();
  const { page, base } = await dispatcherConsole(context);
  await until(async () => (await api(page, 'GET', '/ds/apiZlmk/proxy?stream=cam1')).code === '0', 'demo camera cam1 plays', 60_000, 500);
  await page.evaluate(() => localStorage.removeItem('tenfour.surveillance.layout'));
  await page.goto(`${base}/video-surveillance`);
  await page.waitForSelector('[data-testid=camera-cam1]', { timeout: 30_000 });
  await page.click('[data-testid=tile-0]');
  const times = [];
  for (let i = 0; i < clicks + 1; i++) {
    const ms = await page.evaluate(async () => {
      const clear = document.querySelector('[data-testid=tile-0] button[aria-label="Remove from tile"]');
      if (clear) {
        clear.click();
        await new Promise((r) => setTimeout(r, 300));
      }
      const v = document.querySelector('[data-testid=tile-0] video');
      const show = [...document.querySelectorAll('[data-testid=camera-cam1] button')].find((b) => b.textContent?.includes('Show'));
      if (!v || !show) throw new Error('no tile or no Show button');
      const t0 = performance.now();
      show.click();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no frame within 10 s')), 10_000);
        const tick = () => {
          if (v.videoWidth > 0) {
            clearTimeout(timer);
            resolve(performance.now() - t0);
          } else v.requestVideoFrameCallback(tick);
        };
        v.requestVideoFrameCallback(tick);
      });
    });
    if (i > 0) times.push(ms); // the first click warms the page's code paths
  }
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.max(0, Math.ceil(p * times.length) - 1)];
  console.log(`BENCH camera_click_p50_ms ${pct(0.5).toFixed(1)}`);
  console.log(`BENCH camera_click_p95_ms ${pct(0.95).toFixed(1)}`);
  console.log(`BENCH camera_click_n ${times.length}`);
} finally {
  await browser.close().catch(() => {});
}
process.exit(0); // the page's forwarder keeps the event loop alive
