// Browser cases of issue 33 (the map's and the tables' finished edges), at the 1366×768 of a control-room laptop:
// a demo terminal's name is drawn at street zoom, the legend opens, ranging works with clicks and Finish alone, and
// the geofence list's Name column is readable with headers that do not break mid-word.
import { api, dispatcherConsole, expect, until } from './harness.mjs';

/** Anything that looks like a map tile from the internet is refused, as on a closed network. */
const TILE_HOSTS = /tile\.openstreetmap\.org|arcgisonline\.com|google\.com|autonavi\.com/;

async function mapPage(context, path = '/monitoring') {
  await context.route(TILE_HOSTS, (r) => r.abort('internetdisconnected'));
  const { page, base } = await dispatcherConsole(context);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${base}${path}`);
  await page.waitForSelector('[data-testid=map][data-ready="1"]', { timeout: 60_000 });
  return { page, base };
}

/** Haversine on the 6,371 km sphere (docs/geo.md), metres. */
function haversine([lng1, lat1], [lng2, lat2]) {
  const r = (d) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(a));
}

/** The readout as metres. */
function metresOf(text) {
  const m = /([\d.]+)\s*(km|m)\s*$/.exec(text ?? '');
  return m ? Number(m[1]) * { km: 1000, m: 1 }[m[2]] : null;
}

export const mapEdgesCases = [
  [
    'mapedges: at street zoom a demo terminal shows its name, and the legend explains the markers',
    async ({ context }) => {
      const { page } = await mapPage(context);
      await until(async () => Number(await page.getAttribute('[data-testid=terminal-layer]', 'data-count')) >= 40, 'demo fleet on the map', 20_000);
      // The demo terminal with the most others within 400 m (where names crowd), at street zoom 16: no clusters
      // any more (they end at 15).
      const target = await page.evaluate(async () => {
        const map = document.querySelector('[data-testid=map]').__map;
        const fs = (await map.getSource('terminals').getData()).features.filter((f) => f.properties?.cid);
        const metres = (a, b) => Math.hypot((a[0] - b[0]) * 84_000, (a[1] - b[1]) * 111_000);
        const near = (f) => fs.filter((g) => metres(f.geometry.coordinates, g.geometry.coordinates) < 400).length;
        const f = fs.map((x) => [near(x), x]).sort((a, b) => b[0] - a[0])[0][1];
        map.jumpTo({ center: f.geometry.coordinates, zoom: 16 });
        return { cid: f.properties.cid, name: f.properties.name };
      });
      // The names drawn, and the terminals drawn in the middle of the view (a name at the view's edge may be cut).
      const drawn = await until(
        () =>
          page.evaluate((cid) => {
            const map = document.querySelector('[data-testid=map]').__map;
            if (!map.isSourceLoaded('terminals') || map.isMoving()) return null;
            const c = map.getCanvas();
            const w = c.clientWidth;
            const h = c.clientHeight;
            const names = map.queryRenderedFeatures({ layers: ['terminals-label'] }).map((f) => f.properties.cid);
            const inner = map.queryRenderedFeatures([[w * 0.2, h * 0.2], [w * 0.8, h * 0.8]], { layers: ['terminals-point'] }).map((f) => f.properties.cid);
            return names.includes(cid) ? { names, inner } : null;
          }, target.cid),
        `the name of ${target.cid} (${target.name}) drawn at zoom 16`,
        20_000,
        300,
      );
      console.log(`     zoom 16: ${drawn.names.length} names drawn, ${drawn.inner.length} terminals in the middle of the view`);
      // Neighbours' names are not dropped for one another: every terminal there is named.
      const unnamed = drawn.inner.filter((cid) => !drawn.names.includes(cid));
      expect(drawn.inner.length >= 2 && unnamed.length === 0, `terminals without a name at zoom 16: ${unnamed} (of ${drawn.inner})`);

      // The legend: closed at first (one small button), then every state, the rings and the cluster.
      const legend = page.locator('[data-testid=map-legend]');
      expect((await legend.getAttribute('data-open')) === '0', 'the legend starts closed');
      await page.click('[data-testid=map-legend-toggle]');
      await page.waitForSelector('[data-testid=map-legend][data-open="1"] li');
      const entries = await page.$$eval('[data-testid=map-legend] li', (lis) => lis.map((li) => ({ key: li.dataset.key, text: li.textContent.trim(), colour: getComputedStyle(li.firstElementChild).backgroundColor })));
      expect(entries.map((e) => e.key).join() === 'sos,talking,online,offline,group,stale,cluster', `legend entries: ${entries.map((e) => e.key)}`);
      expect(entries.find((e) => e.key === 'sos').colour === 'rgb(245, 34, 45)' && /SOS/.test(entries[0].text), `SOS entry: ${JSON.stringify(entries[0])}`);
      expect(entries.every((e) => e.text.length > 1), `a legend entry without text: ${JSON.stringify(entries)}`);
      // It stays inside the map and off the toolbar.
      const [lb, tb] = await Promise.all([legend.boundingBox(), page.locator('[data-testid=map-toolbar]').boundingBox()]);
      expect(lb.y + lb.height <= 768 && lb.y > tb.y + tb.height, `legend at ${JSON.stringify(lb)}, toolbar ${JSON.stringify(tb)}`);
      await page.click('[data-testid=map-legend-toggle]');
      await page.waitForSelector('[data-testid=map-legend][data-open="0"]');
    },
  ],
  [
    'mapedges: ranging with three clicks and Finish shows the distance after each click',
    async ({ context }) => {
      const { page } = await mapPage(context);
      const box = await page.$eval('[data-testid=map] canvas', (c) => {
        const r = c.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
      });
      const cx = Math.round(box.w / 2);
      const cy = Math.round(box.h / 2);
      const line = [[cx - 220, cy + 40], [cx - 20, cy - 100], [cx + 200, cy + 20]];
      const ll = await page.evaluate((pts) => {
        const map = document.querySelector('[data-testid=map]').__map;
        return pts.map(([x, y]) => map.unproject([x, y]).toArray());
      }, line);
      const result = () => page.textContent('[data-testid=measure-result]');
      await page.click('[data-testid=tool-distance]');
      await page.waitForSelector('[data-testid=draw-layer][data-mode=linestring]', { state: 'attached' });
      let expected = 0;
      for (const [i, [x, y]] of line.entries()) {
        await page.mouse.click(box.x + x, box.y + y);
        if (i > 0) expected += haversine(ll[i - 1], ll[i]);
        // The pointer leaves for the toolbar's side: what is shown is the placed points', not the pointer's.
        await page.mouse.move(box.x + 30, box.y + box.h - 60, { steps: 2 });
        await page.waitForSelector(`[data-testid=measure-bar][data-points="${i + 1}"]`);
        if (i === 0) continue;
        const shown = await until(async () => metresOf(await result()), `a distance after click ${i + 1}`, 10_000);
        expect(Math.abs(shown - expected) / expected < 0.01, `after click ${i + 1}: shown ${shown} m, expected ${expected.toFixed(1)} m`);
      }
      // The readout and an open legend share the bottom left without covering each other.
      await page.click('[data-testid=map-legend-toggle]');
      await page.waitForSelector('[data-testid=map-legend][data-open="1"] li');
      const [bar, legend] = await Promise.all([page.locator('[data-testid=measure-bar]').boundingBox(), page.locator('[data-testid=map-legend]').boundingBox()]);
      expect(bar.y + bar.height <= legend.y || legend.y + legend.height <= bar.y || bar.x + bar.width <= legend.x, `the readout ${JSON.stringify(bar)} covers the legend ${JSON.stringify(legend)}`);
      await page.click('[data-testid=measure-finish]');
      await page.waitForSelector('[data-testid=measure-bar][data-drawing="0"][data-points="3"]');
      const finished = metresOf(await result());
      console.log(`     finished: ${await result()}, expected ${expected.toFixed(1)} m`);
      expect(finished && Math.abs(finished - expected) / expected < 0.01, `finished: ${await result()}, expected ${expected.toFixed(1)} m`);
      // Clear empties the readout; the next click starts a new line.
      await page.click('[data-testid=measure-clear]');
      await page.waitForSelector('[data-testid=measure-bar][data-points="0"]');
      expect(metresOf(await result()) === null, `after Clear: ${await result()}`);
    },
  ],
  [
    'mapedges: the geofence list has a readable Name column and headers that do not break mid-word',
    async ({ context }) => {
      const { page, base } = await mapPage(context);
      // A fence with a long name, far from the fleet (nothing to place in it).
      const name = `E2E edges ${Date.now().toString(36)} — the north gate of the harbour depot`;
      const created = await api(page, 'POST', '/ds/fence/create', { name, type: 'in', shape: 'circle', geometry: { type: 'Point', coordinates: [10, -40] }, radius: 200 });
      expect(created.code === '0', `fence created: ${JSON.stringify(created)}`);
      await page.goto(`${base}/monitoring?tool=fence&fenceTab=1`);
      const row = `[data-testid=fence-list] tr[data-fenceid="${created.result.fenceid}"]`;
      await page.waitForSelector(row, { timeout: 15_000 });
      const head = await page.$$eval('[data-testid=fence-list] thead th', (ths) =>
        ths.map((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          // One line: every piece of the header's text on the same line.
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          return { text: th.textContent.trim(), width: th.getBoundingClientRect().width, lines: tops.size };
        }),
      );
      console.log(`     headers: ${head.map((h) => `${h.text || '·'} ${Math.round(h.width)} px`).join(', ')}`);
      const nameHead = head.find((h) => h.text === 'Name');
      expect(nameHead && nameHead.width >= 120, `the Name column is ${nameHead?.width} px wide`);
      const broken = head.filter((h) => h.text && h.lines > 1);
      expect(broken.length === 0, `headers on more than one line: ${broken.map((h) => h.text)}`);
      // The long name is cut with an ellipsis and kept whole as the cell's tooltip.
      // (Read by selector: the list renders again as the fences' query settles, so a held row can be a stale one.)
      const cell = await page.$eval(`${row} td`, (td) => ({ title: td.getAttribute('title'), cut: td.scrollWidth > td.clientWidth }));
      expect(cell.title === name && cell.cut, `the name cell: ${JSON.stringify(cell)}`);
      // The table is wider than the panel and scrolls sideways rather than squeezing its columns.
      const scroll = await page.$eval('[data-testid=fence-list] .ant-table-content', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll.scroll > scroll.client, `the list does not scroll sideways: ${JSON.stringify(scroll)}`);
      await api(page, 'PUT', '/ds/fence/del', { fenceid: created.result.fenceid });
    },
  ],
];
