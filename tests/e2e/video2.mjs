// Browser cases of session 6's video work (docs/video.md §6): a phone-app terminal dragged from the surveillance
// screen's terminal list onto a tile is monitored there (moving video on the tile, not in the video call window),
// clearing the tile stops it; an offline terminal's tile says why it has no picture. Accounts 10000161–10000162.
import { api, dispatcherConsole, expect, until } from './harness.mjs';
import { MOBILE, phonePage, withContexts } from './voice.mjs';

const PHONE = '10000161';
const OFFLINE = '10000162';

/** Width and decoded frames of a tile's <video>. */
async function tileVideo(page, index) {
  return page.evaluate((i) => {
    const v = document.querySelector(`[data-testid=tile-${i}] video`);
    if (!v) return { w: 0, frames: 0 };
    const q = v.getVideoPlaybackQuality?.();
    return { w: v.videoWidth, frames: q ? q.totalVideoFrames : 0 };
  }, index);
}

/** The console's surveillance screen on its default layout, once terminal msId is listed there. */
async function surveillance(context, msId) {
  const { page, base } = await dispatcherConsole(context);
  await page.evaluate(() => localStorage.removeItem('tenfour.surveillance.layout'));
  await page.goto(`${base}/video-surveillance`);
  await page.waitForSelector(`[data-testid=sv-terminal-${msId}]`, { timeout: 20_000 });
  return { page, base };
}

async function monitors(page) {
  const r = await api(page, 'GET', '/ds/video/limits');
  expect(r.code === '0', `video limits: ${r.code}`);
  return r.result.monitors;
}

export const video2Cases = [
  [
    'video2: a terminal dragged onto a surveillance tile is monitored there, moving video; clearing the tile stops it',
    () =>
      withContexts('video2-tile', async (open) => {
        await phonePage(await open(MOBILE), PHONE);
        const { page } = await surveillance(await open(), PHONE);
        const before = await monitors(page);
        await page.dragAndDrop(`[data-testid=sv-terminal-${PHONE}]`, '[data-testid=tile-0]');
        await page.waitForSelector(`[data-testid=tile-0][data-terminal="${PHONE}"]`, { timeout: 10_000 });
        const first = await until(async () => {
          const v = await tileVideo(page, 0);
          return v.w > 0 ? v : false;
        }, 'the tile shows the phone camera', 20_000, 50);
        await until(async () => (await tileVideo(page, 0)).frames > first.frames + 10, 'frames keep coming', 10_000, 100);
        expect((await page.$('[data-testid=videocall-session]')) === null, 'the monitoring is on the tile, not in the video call window');
        expect((await monitors(page)) === before + 1, 'one monitored entry');
        await page.click('[data-testid=tile-0] [aria-label="Remove from tile"]');
        await until(async () => (await monitors(page)) === before, 'the monitoring stopped', 10_000, 200);
      }),
  ],
  [
    'video2: an offline terminal dropped on a tile says why it has no picture',
    async ({ context }) => {
      const { page } = await surveillance(context, OFFLINE);
      await page.dragAndDrop(`[data-testid=sv-terminal-${OFFLINE}]`, '[data-testid=tile-1]');
      await page.waitForSelector('[data-testid=tile-1] [data-testid=terminal-tile-reason][data-reason="reason.terminalOffline"]', { timeout: 10_000 });
      const text = await page.textContent('[data-testid=tile-1] [data-testid=terminal-tile-reason]');
      expect(/offline/i.test(text ?? ''), `reason shown: ${text}`);
    },
  ],
];

// The demo customer records its calls and monitorings (docs/video.md §5): a monitoring on a tile, stopped, is listed
// on /video-records' "Calls and monitoring" tab and plays back in the browser.
video2Cases.push([
  'video2: a recorded monitoring is listed on /video-records and plays back',
  () =>
    withContexts('video2-record', async (open) => {
      await phonePage(await open(MOBILE), PHONE);
      const { page, base } = await surveillance(await open(), PHONE);
      // The first case's short monitoring of the same phone is listed too (newest first): this case's own recording is
      // the monitor record that was not there before it started, however late the server stores it.
      const records = async () => {
        const now = Date.now();
        const r = await api(page, 'GET', `/ds/video/records?msId=${PHONE}&sTime=${now - 3_600_000}&eTime=${now + 60_000}`);
        expect(r.code === '0', `video records: ${r.code}`);
        return r.result.list;
      };
      const earlier = new Set((await records()).map((x) => x.id));
      await page.dragAndDrop(`[data-testid=sv-terminal-${PHONE}]`, '[data-testid=tile-2]');
      await until(async () => (await tileVideo(page, 2)).w > 0, 'the tile shows the phone camera', 20_000, 50);
      await page.waitForTimeout(3000);
      await page.click('[data-testid=tile-2] [aria-label="Remove from tile"]');
      const rec = await until(
        async () => (await records()).find((x) => x.kind === 'monitor' && !earlier.has(x.id)) ?? false,
        'the recording is stored',
        20_000,
        300,
      );
      expect(rec.durationMs >= 2000 && rec.bytes > 10_000, `recording ${JSON.stringify(rec)}`);
      await page.goto(`${base}/video-records`);
      await page.click('[data-testid=videorecords-tab-sessions]');
      await page.waitForSelector('[data-testid=videorecords-session-play]', { timeout: 15_000 });
      await page.click('[data-testid=videorecords-session-play] >> nth=0');
      await until(
        () => page.evaluate(() => {
          const v = document.querySelector('[data-testid=videorecords-session-video]');
          return !!v && v.videoWidth > 0 && v.currentTime > 0.5;
        }),
        'the recording plays',
        15_000,
        100,
      );
    }),
]);
