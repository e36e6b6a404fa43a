// Browser cases of issue 16 (cameras): /video-surveillance plays a demo camera (a real RTSP server serving a moving
// test pattern, pulled by the server with ffmpeg, delivered over WebRTC), a recording plays back on /video-records
// with the duration its list shows, a snapshot is kept in the media cloud, and the tree's dots say which cameras
// answer before any is opened (issue 33).
import { api, dispatcherConsole, expect, until } from './harness.mjs';

/** Decoded-frame count and size of the tile's <video> (requestVideoFrameCallback counts frames really painted). */
async function tileVideo(page, index) {
  return page.evaluate((i) => {
    const v = document.querySelector(`[data-testid=tile-${i}] video`);
    if (!v) return null;
    if (!v.__frames) {
      v.__frames = { n: 0 };
      const tick = () => {
        v.__frames.n++;
        v.requestVideoFrameCallback(tick);
      };
      v.requestVideoFrameCallback(tick);
    }
    const q = v.getVideoPlaybackQuality?.();
    return { w: v.videoWidth, h: v.videoHeight, frames: v.__frames.n, decoded: q ? q.totalVideoFrames : 0 };
  }, index);
}

async function openSurveillance(context) {
  const { page, base } = await dispatcherConsole(context);
  const cams = await api(page, 'GET', '/ds/camera/list');
  expect(cams.code === '0', `camera list: ${cams.code}`);
  expect(cams.result.tool, 'the server has no ffmpeg (make test-deps)');
  expect(cams.result.total >= 4, `the demo customer has ${cams.result.total} cameras, want at least 4`);
  await page.evaluate(() => localStorage.removeItem('tenfour.surveillance.layout'));
  await page.goto(`${base}/video-surveillance`);
  await page.waitForSelector('[data-testid=surveillance-page]', { timeout: 30_000 });
  await page.waitForSelector('[data-testid=camera-cam1]', { timeout: 15_000 });
  return { page, base };
}

export const camerasCases = [
  [
    'cameras: /video-surveillance plays a demo camera within 2 s of the click, frames rising',
    async ({ context }) => {
      const { page } = await openSurveillance(context);
      // warm the camera's pull first (the demo's simulated cameras start on demand), then time a fresh tile
      const warm = await api(page, 'GET', '/ds/apiZlmk/proxy?stream=cam1');
      expect(warm.code === '0', `proxy cam1: ${warm.code} ${warm.key ?? ''}`);
      await page.click('[data-testid=tile-0]');
      const t0 = Date.now();
      await page.click('[data-testid=camera-cam1] button:has-text("Show")');
      const first = await until(async () => {
        const v = await tileVideo(page, 0);
        return v && v.w > 0 && v.frames > 0 ? v : false;
      }, 'the tile shows a decoded picture', 10_000, 20);
      const ms = Date.now() - t0;
      expect(ms < 2000, `first decoded frame after ${ms} ms, want under 2000`);
      await until(async () => {
        const v = await tileVideo(page, 0);
        return v && v.frames >= first.frames + 10 ? v : false;
      }, 'frames keep coming', 10_000, 100);
      console.log(`    camera click → first decoded frame: ${ms} ms (${first.w}x${first.h})`);
    },
    { serial: true }, // a time budget in ms: run alone (harness.mjs partOf)
  ],
  [
    'cameras: the dots say which cameras answer before any is opened, and a tile says why it has no picture',
    async ({ context }) => {
      const { page } = await openSurveillance(context);
      const add = await api(page, 'POST', '/ds/camera/add', { streamId: 'e2e-down', streamUrl: 'rtsp://127.0.0.1:9/none', protocol: 0, name: 'E2E down' });
      expect(add.code === '0' || add.code === '409', `add: ${add.code}`);
      try {
        await page.waitForSelector('[data-testid=camera-e2e-down]', { timeout: 15_000 });
        // issue 33 (every dot stayed grey until opened): the server asks the cameras it does not pull — the one
        // nothing listens for is offline, cam4 (never shown by these cases) online
        await page.waitForSelector('[data-testid=camera-dot-e2e-down][data-dot=offline]', { timeout: 20_000 });
        await page.waitForSelector('[data-testid=camera-dot-cam4][data-dot=online]', { timeout: 40_000 });
        const list = await api(page, 'GET', '/ds/camera/list');
        const cam4 = list.result.list.find((c) => c.streamId === 'cam4');
        expect(cam4.state === 'idle' && cam4.reach === 'online', `cam4: ${JSON.stringify({ state: cam4.state, reach: cam4.reach })}`);
        await page.click('[data-testid=tile-1]');
        await page.click('[data-testid=camera-e2e-down] button:has-text("Show")');
        const text = await until(async () => {
          const t = await page.textContent('[data-testid=tile-1] [role=status]').catch(() => '');
          return t && /offline/i.test(t) ? t : false;
        }, 'the tile says the camera is offline', 20_000, 200);
        expect(/cannot be reached/.test(text), text);
      } finally {
        if (add.result?.id) await api(page, 'DELETE', `/ds/camera/delete?id=${add.result.id}`);
      }
    },
  ],
  [
    'cameras: a recording of a demo camera plays back on /video-records',
    async ({ context }) => {
      const { page, base } = await openSurveillance(context);
      const start = await api(page, 'GET', '/ds/apiZlmk/record?type=0&stream=cam2&remark=e2e');
      expect(start.code === '0', `record start: ${start.code} ${start.key ?? ''}`);
      await new Promise((r) => setTimeout(r, 3000)); // three seconds of video
      const stop = await api(page, 'GET', '/ds/apiZlmk/record?type=1&stream=cam2');
      expect(stop.code === '0', `record stop: ${stop.code}`);
      await page.goto(`${base}/video-records`);
      await page.waitForSelector('[data-testid=videorecords-page]');
      await page.click('[data-testid=videorecords-play] >> nth=0');
      const v = await until(
        () => page.evaluate(() => {
          const el = document.querySelector('[data-testid=videorecords-video]');
          return el && el.videoWidth > 0 && el.currentTime > 0.5 && el.duration > 2 ? { w: el.videoWidth, d: el.duration } : false;
        }),
        'the recording plays',
        15_000,
        100,
      );
      // seeking works (the file's index is first)
      await page.evaluate(() => { document.querySelector('[data-testid=videorecords-video]').currentTime = 1; });
      await until(() => page.evaluate(() => !document.querySelector('[data-testid=videorecords-video]').seeking), 'the seek completes', 5_000);
      expect(v.w === 640, `recording width ${v.w}`);
      // the list says the duration the player plays (issue 33: the list said 0:00:36 of a 0:34 recording)
      const listed = (await page.textContent('.ant-table-row >> nth=0 >> td >> nth=2')).trim();
      const s = Math.round(v.d);
      const played = `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
      expect(listed === played, `the list says ${listed}, the player plays ${v.d} s (${played})`);
      const title = await page.textContent('.ant-modal-title');
      expect(title.includes(listed), `the player's title "${title}" gives another duration than the list's ${listed}`);
    },
  ],
  [
    'cameras: a snapshot taken on a tile is kept in the media cloud with its camera and time',
    async ({ context }) => {
      const { page, base } = await openSurveillance(context);
      await page.click('[data-testid=tile-0]');
      await page.click('[data-testid=camera-cam2] button:has-text("Show")');
      await until(async () => {
        const v = await tileVideo(page, 0);
        return v && v.w > 0 && v.frames > 0;
      }, 'the tile shows a picture', 15_000);
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 20_000 }),
        page.click('[data-testid=tile-0] button[aria-label=Snapshot]'),
      ]);
      const name = download.suggestedFilename();
      expect(/-\d{8}-\d{6}\.jpg$/.test(name), `the snapshot downloads as ${name}`);
      await page.waitForSelector('.ant-message:has-text("media cloud")', { timeout: 10_000 });
      await page.goto(`${base}/medias`);
      await page.waitForSelector('[data-testid=medias-page]');
      const item = await page.waitForSelector('[data-testid=media-item][data-camera=cam2]', { timeout: 15_000 });
      expect((await item.getAttribute('title')) === name, `the media cloud keeps it as ${await item.getAttribute('title')}, want ${name}`);
      await item.click();
      const meta = await page.textContent('[data-testid=media-preview] .media-meta');
      expect(/Camera/.test(meta) && /cam2/.test(meta) && /Snapshot by/.test(meta), `the preview names its camera: ${meta}`);
    },
  ],
];
