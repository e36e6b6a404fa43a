// Browser cases of issue 6 (maps): live terminals that appear and move, a fence crossing shown within 1 s, a track
// played back with the docs/geo.md fixture's summary, and the offline basemap when tiles are unreachable.
// Terminals are driven over the socket (docs/terminal-protocol.md "Positions", terminal.mjs): demo apps 10000156
// (fence, and the one that moves) and 10000157 (track); the quiet demo fleet stands still where it logged in.
import { api, dispatcherConsole, expect, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

const T = { fence: '10000156', track: '10000157' };
/** Anything that looks like a map tile from the internet is refused, as on a closed network. */
const TILE_HOSTS = /tile\.openstreetmap\.org|arcgisonline\.com|google\.com|autonavi\.com/;

async function mapPage(context, path = '/monitoring') {
  await context.route(TILE_HOSTS, (r) => r.abort('internetdisconnected'));
  const { page, base } = await dispatcherConsole(context);
  await page.goto(`${base}${path}`);
  await page.waitForSelector('[data-testid=map][data-ready="1"]', { timeout: 60_000 });
  return { page, base };
}

/** The terminals source as the map holds it: cid → [lng, lat]. */
function positions(page) {
  return page.evaluate(async () => {
    const map = document.querySelector('[data-testid=map]').__map;
    const out = {};
    const add = (fc) => fc?.features?.forEach((f) => (out[f.properties.cid] = f.geometry.coordinates));
    add(await map.getSource('terminals').getData());
    add(await map.getSource('terminal-selected').getData());
    return out;
  });
}

export const mapCases = [
  [
    'map: the dispatch screen and the map load under the CSP with no violation',
    async ({ context, csp }) => {
      const { page, base } = await dispatcherConsole(context);
      const res = await page.goto(`${base}/monitoring`);
      const policy = res.headers()['content-security-policy'] ?? '';
      expect(/frame-ancestors 'none'/.test(policy) && /worker-src 'self' blob:/.test(policy), `CSP of the console: ${policy}`);
      await context.route(TILE_HOSTS, (r) => r.abort('internetdisconnected'));
      await page.waitForSelector('[data-testid=map][data-ready="1"]', { timeout: 60_000 });
      await until(async () => Number(await page.getAttribute('[data-testid=terminal-layer]', 'data-count')) >= 40, 'demo fleet on the map', 20_000);
      // MapLibre's worker ran (it draws the terminals source) and a tile was asked for: the CSP let both through.
      const drawn = await page.evaluate(() => document.querySelector('[data-testid=map]').__map.queryRenderedFeatures().length);
      expect(drawn > 0, 'the map drew features');
      // The check is live: an inline script (which the CSP forbids) is reported.
      await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true';
        document.body.append(s);
      });
      await until(() => csp.length > 0, 'the forbidden inline script is reported', 5_000);
      expect(!(await page.evaluate(() => window.__inlineRan)), 'an inline script ran under the CSP');
      expect(csp.every((v) => /^script-src/.test(v)), `violations other than the planted script: ${csp.join('; ')}`);
      csp.length = 0;
    },
  ],
  [
    'map: terminals appear on the map and move; a cluster tooltip lists its terminals',
    async ({ context }) => {
      const { page } = await mapPage(context);
      await until(async () => Number(await page.getAttribute('[data-testid=terminal-layer]', 'data-count')) >= 40, 'demo fleet on the map', 20_000);
      // A terminal of ours moves: each report shows on the map.
      const term = await terminal(T.fence);
      for (const at of [{ lat: 41.0412, lng: 28.9712 }, { lat: 41.0431, lng: 28.9755 }]) {
        expect((await term.report({ ...at, speed: 5, direction: 60 })).code === '0', 'report accepted');
        await until(async () => {
          const p = (await positions(page))[T.fence];
          return p && Math.abs(p[1] - at.lat) < 1e-6 && Math.abs(p[0] - at.lng) < 1e-6;
        }, `${T.fence} on the map at ${at.lat},${at.lng}`, 15_000);
      }
      await term.close();

      // Hovering a cluster lists its terminals.
      // Zoomed out, the map is idle once the new zoom's tiles (and clusters) are drawn.
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const map = document.querySelector('[data-testid=map]').__map;
            map.once('idle', resolve);
            map.jumpTo({ zoom: 10 });
            map.triggerRepaint();
          }),
      );
      const clusterAt = await until(
        () =>
          page.evaluate(() => {
            const map = document.querySelector('[data-testid=map]').__map;
            // The cluster nearest the middle of the map, away from the overlays at its edges.
            const c = map.project(map.getCenter());
            const f = map
              .queryRenderedFeatures({ layers: ['terminals-cluster'] })
              .sort((a, b) => map.project(a.geometry.coordinates).dist(c) - map.project(b.geometry.coordinates).dist(c))[0];
            if (!f) return null;
            const p = map.project(f.geometry.coordinates);
            const r = map.getCanvas().getBoundingClientRect();
            return { x: r.left + p.x, y: r.top + p.y, count: f.properties.point_count };
          }),
        'a cluster is drawn',
        15_000,
      );
      // Hover it (the move is fired on the map itself, as its own pointer handling would). The tooltip asks the
      // worker for the cluster's leaves (slow on a busy machine), so it is given time.
      await page.evaluate(({ x, y }) => {
        const map = document.querySelector('[data-testid=map]').__map;
        const r = map.getCanvas().getBoundingClientRect();
        const lngLat = map.unproject([x - r.left, y - r.top]);
        map.fire('mousemove', { point: map.project(lngLat), lngLat, originalEvent: new MouseEvent('mousemove') });
      }, clusterAt);
      const listed = await until(async () => (await page.$$('[data-testid=cluster-tooltip] li')).length, 'cluster tooltip lists terminals', 20_000, 200);
      // The fleet stands still: the cluster still holds what it held when it was read (the tooltip lists 12 at most).
      expect(listed === Math.min(clusterAt.count, 12), `tooltip lists ${listed} terminals of a cluster of ${clusterAt.count}`);

    },
  ],
  [
    'map: a selected terminal is never clustered and follows its reports',
    async ({ context }) => {
      // Our own terminal: report a position, open the map on it (a ?msId link selects it), report again.
      const term = await terminal(T.fence);
      const a = { lat: 41.0301, lng: 28.9902, speed: 3, direction: 45 };
      expect((await term.report(a)).code === '0', 'first report accepted');
      const { page } = await mapPage(context, `/monitoring?msId=${T.fence}`);
      await until(async () => {
        const p = (await positions(page))[T.fence];
        return p && Math.abs(p[1] - a.lat) < 1e-6 && Math.abs(p[0] - a.lng) < 1e-6;
      }, 'selected terminal at its first position', 15_000);
      const b = { lat: 41.0352, lng: 28.9951, speed: 4, direction: 40 };
      expect((await term.report(b)).code === '0', 'second report accepted');
      await until(async () => {
        const p = (await positions(page))[T.fence];
        return p && Math.abs(p[1] - b.lat) < 1e-6 && Math.abs(p[0] - b.lng) < 1e-6;
      }, 'selected terminal moved to its second position', 15_000);
      const clustered = await page.evaluate(async (cid) => {
        const src = document.querySelector('[data-testid=map]').__map.getSource('terminals');
        return (await src.getData()).features.some((f) => f.properties.cid === cid);
      }, T.fence);
      expect(!clustered, 'the selected terminal is still in the clustered source');
      await page.waitForSelector(`[data-testid=map-terminal-card][data-cid="${T.fence}"]`);
      await term.close();
    },
  ],
  [
    'map: a terminal leaving its "in" geofence raises an alarm the console shows within 1 s',
    async ({ context }) => {
      const { page } = await mapPage(context, '/monitoring?tool=fence&fenceTab=3');
      await page.waitForSelector('[data-testid=fence-alarms]');
      const term = await terminal(T.fence);
      const centre = { lat: 41.0601, lng: 29.0201 };
      expect((await term.report({ ...centre, speed: 0 })).code === '0', 'inside report accepted');
      const created = await api(page, 'POST', '/ds/fence/create', {
        name: `E2E depot ${Date.now().toString(36)}`,
        type: 'in',
        shape: 'circle',
        geometry: { type: 'Point', coordinates: [centre.lng, centre.lat] },
        radius: 300,
        msIds: [T.fence],
      });
      expect(created.code === '0', `fence create answered ${JSON.stringify(created)}`);
      const fenceid = created.result.fenceid;
      try {
        await page.waitForSelector(`[data-testid=fence-layer][data-count]:not([data-count="0"])`, { state: 'attached', timeout: 10_000 });
        // A second fix inside records where it is; the next one, 1.1 km north, leaves the fence.
        expect((await term.report({ ...centre, lat: centre.lat + 0.0005, speed: 1 })).code === '0', 'inside report accepted');
        await page.evaluate(() => {
          window.__alarmShown = 0;
          new MutationObserver(() => {
            if (!window.__alarmShown && document.querySelector('[data-testid=fence-alarm-notice]')) window.__alarmShown = Date.now();
          }).observe(document.body, { subtree: true, childList: true });
        });
        const out = await term.report({ ...centre, lat: centre.lat + 0.01, speed: 8 });
        expect(out.code === '0', `leaving report answered ${JSON.stringify(out)}`);
        const shownAt = await until(() => page.evaluate(() => window.__alarmShown), 'fence alarm notice shown', 5_000, 20);
        const delay = shownAt - out.sentAt;
        const arrived = Number(await page.evaluate(() => document.documentElement.dataset.fenceAlarmAt ?? 0));
        console.log(`     fence alarm: event in the console ${arrived - out.sentAt} ms and shown ${delay} ms after the report was sent`);
        expect(delay < 1000, `alarm shown after ${delay} ms`);
        const notice = await page.$('[data-testid=fence-alarm-notice]');
        expect((await notice.getAttribute('data-ms-id')) === T.fence, 'notice names the terminal');
        expect(/left the geofence/.test(await notice.textContent()), `notice text: ${await notice.textContent()}`);
        expect(Number(await page.evaluate(() => document.documentElement.dataset.fenceAlarmSound ?? 0)) >= 1, 'alarm sound played');
        // The record is listed (sub-tab 3) and can be canceled (log 127).
        const row = await page.waitForSelector('[data-testid=fence-alarms] [data-testid=alarm-cancel]', { timeout: 10_000 });
        await row.click();
        await until(async () => (await page.$$('[data-testid=fence-alarms] [data-status="2"]')).length > 0, 'alarm canceled in the list', 10_000);
      } finally {
        await api(page, 'PUT', '/ds/fence/del', { fenceid });
        await term.close();
      }
    },
  ],
  [
    'map: a geofence is drawn on the map and created (name required, spec §5)',
    async ({ context }) => {
      const { page } = await mapPage(context, '/monitoring?tool=fence&fenceTab=2');
      await page.waitForSelector('[data-testid=fence-create]');
      // Name required: saving without one is refused in the form.
      await page.click('[data-testid=fence-save]');
      await page.waitForSelector('.ant-form-item-explain-error:has-text("The geofence needs a name.")');
      const name = `E2E drawn ${Date.now().toString(36)}`;
      await page.fill('[data-testid=fence-name]', name);
      await page.click('[data-testid=fence-type] label:has-text("Keep out")');
      await page.click('[data-testid=fence-draw]');
      await page.waitForSelector('[data-testid=draw-layer][data-mode=polygon]', { state: 'attached' });
      const box = await page.$eval('[data-testid=map] canvas', (c) => {
        const r = c.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
      });
      const cx = box.x + box.w / 2;
      const cy = box.y + box.h / 2;
      const corners = [[-120, -80], [120, -90], [140, 90], [-100, 100]].map(([dx, dy]) => [cx + dx, cy + dy]);
      for (const [x, y] of corners) {
        await page.mouse.move(x, y, { steps: 3 });
        await page.mouse.click(x, y);
      }
      await page.mouse.move(corners[0][0], corners[0][1], { steps: 3 });
      await page.mouse.click(corners[0][0], corners[0][1]);
      try {
        await page.waitForSelector('[data-testid=fence-drawn]', { timeout: 10_000 });
        await page.click('[data-testid=fence-save]');
        await page.waitForSelector(`[data-testid=fence-list] tr:has-text("${name}")`, { timeout: 15_000 });
        const list = await api(page, 'GET', '/ds/fence/list');
        const fence = list.result.find((f) => f.name === name);
        expect(fence && fence.type === 'out' && fence.shape === 'polygon', `stored fence ${JSON.stringify(fence)}`);
        expect(fence.geometry.coordinates[0].length === 5, `ring of ${fence.geometry.coordinates[0].length} positions`);
      } finally {
        const left = (await api(page, 'GET', '/ds/fence/list')).result?.filter((f) => f.name === name) ?? [];
        for (const f of left) await api(page, 'PUT', '/ds/fence/del', { fenceid: f.fenceid });
      }
    },
  ],
  [
    'map: a track query plays back and shows the fixture summary (1.001 km, 20.13 / 0 / 10.07 mph)',
    async ({ context }) => {
      // Logging in replaces any other connection of the account, so nothing else reports for it from now on; the
      // fixture is timed from now (the server takes fixes up to 10 minutes ahead), so only its points are in range.
      const term = await terminal(T.track);
      // docs/geo.md fixture: ten fixes a minute apart, 0.001° north each, speeds 0–9 m/s.
      const base = Math.floor(Date.now() / 1000) * 1000 + 1000;
      const points = Array.from({ length: 10 }, (_, i) => ({ lat: 41 + i * 0.001, lng: 29, speed: i, direction: 0, altitude: 10, time: base + i * 60_000 }));
      const r = await term.report({ points, ack: true });
      expect(r.code === '0' && r.data.accepted === 10, `batch answered ${JSON.stringify(r)}`);
      await term.close();
      const { page } = await mapPage(context, `/monitoring?tool=track&trackMsId=${T.track}&trackFrom=${base - 1000}&trackTo=${base + 9 * 60_000 + 1000}`);
      await page.waitForSelector('[data-testid=track-panel][data-play-state=moveend]');
      await page.click('[data-testid=track-query]');
      await page.waitForSelector('[data-testid=track-summary]', { timeout: 15_000 });
      const summary = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=track-summary] [data-key]')].map((e) => [e.dataset.key, e.textContent])));
      expect(summary.count === '10', `count ${summary.count}`);
      expect(summary.distance === '1.001 km', `distance ${summary.distance}`);
      expect(summary.maxSpeed === '20.13 mph', `max ${summary.maxSpeed}`);
      expect(summary.minSpeed === '0.00 mph', `min ${summary.minSpeed}`);
      expect(summary.avgSpeed === '10.07 mph', `avg ${summary.avgSpeed}`);
      const frames = Number(await page.getAttribute('[data-testid=track-now]', 'data-frames'));
      expect(frames === 1 + 9 * 6, `frames ${frames} (six steps per ~111 m segment)`);
      // Play at 4×: moving, then the end in moveend with the marker on the last point.
      await page.click('[data-testid=track-speed]');
      await page.click('.ant-select-item-option[title="4×"], .ant-select-item-option:has-text("4×")');
      await page.evaluate(() => {
        const el = document.querySelector('[data-testid=track-panel]');
        window.__playStates = [el.dataset.playState];
        new MutationObserver(() => window.__playStates.push(el.dataset.playState)).observe(el, { attributes: true, attributeFilter: ['data-play-state'] });
      });
      await page.click('[data-testid=track-play]');
      await until(() => page.evaluate(() => window.__playStates.includes('moving') && document.querySelector('[data-testid=track-panel]').dataset.playState === 'moveend'), 'played through to moveend', 20_000);
      expect(Number(await page.getAttribute('[data-testid=track-now]', 'data-frame')) === frames - 1, 'played to the last frame');
      const head = await page.evaluate(async () => (await document.querySelector('[data-testid=map]').__map.getSource('track-head').getData()).features.find((f) => f.properties.kind === 'head')?.geometry.coordinates);
      expect(head && Math.abs(head[1] - 41.009) < 1e-6, `head at ${head}`);
    },
  ],
  [
    'map: the bundled offline basemap shows when tiles are unreachable (never a blank page)',
    async ({ context }) => {
      const { page } = await mapPage(context);
      await page.waitForSelector('[data-testid=map][data-basemap=offline]', { timeout: 20_000 });
      await page.waitForSelector('[data-testid=map-offline-badge]');
      await page.evaluate(() => document.querySelector('[data-testid=map]').__map.jumpTo({ center: [29, 41], zoom: 4 }));
      const colours = await until(
        () =>
          page.evaluate(
            () =>
              new Promise((resolve) => {
                const map = document.querySelector('[data-testid=map]').__map;
                map.once('render', () => {
                  const gl = map.getCanvas().getContext('webgl2') ?? map.getCanvas().getContext('webgl');
                  const w = gl.drawingBufferWidth;
                  const h = gl.drawingBufferHeight;
                  const px = new Uint8Array(w * h * 4);
                  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
                  const seen = new Map();
                  for (let i = 0; i < px.length; i += 4 * 97) {
                    const k = `${px[i]},${px[i + 1]},${px[i + 2]}`;
                    seen.set(k, (seen.get(k) ?? 0) + 1);
                  }
                  resolve([...seen.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k]) => k));
                });
                map.triggerRepaint();
              }),
          ),
        'map drew',
        15_000,
      );
      // The normal theme: sea #aad3df and land #f2efe9 both on screen.
      expect(colours.includes('170,211,223'), `sea colour missing: ${colours.join(' | ')}`);
      expect(colours.includes('242,239,233'), `land colour missing: ${colours.join(' | ')}`);
    },
  ],
];
