// Browser cases of issue 33 (offline street maps, docs/adr/0036). The suite's server runs with --tiles naming a
// file that is not there (scripts/e2e.sh: E2E_TILES), so the console first has no street map of its own; the
// second case drops the generated demo archive (E2E_TILES_DEMO, `tenfour tiles demo`: a grid city around the
// demo fleet in the Protomaps schema) in its place — the server looks at the file on every request — and takes it
// away again. The internet's tile hosts are refused, as on a closed network.
import { copyFileSync, rmSync } from 'node:fs';
import { dispatcherConsole, expect, menuItem, until } from './harness.mjs';

const TILES = process.env.E2E_TILES;
const DEMO = process.env.E2E_TILES_DEMO;
/** The demo area's centre (internal/tiles DemoCenter), at street zoom. */
const STREET_VIEW = { center: [28.97, 41.01], zoom: 15.5 };

/** The monitoring map with the internet's tile hosts unreachable; what the page logs as errors is kept. */
async function offlineMap(context, streets) {
  await context.route(/^https:\/\//, (r) => r.abort('internetdisconnected'));
  const { page, base } = await dispatcherConsole(context);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const tiles = [];
  page.on('response', (r) => new URL(r.url()).pathname.startsWith('/tiles/') && tiles.push(`${r.status()} ${new URL(r.url()).pathname}`));
  await page.goto(`${base}/monitoring`);
  await page.waitForSelector(`[data-testid=map][data-basemap=offline][data-streets=${streets}]`, { timeout: 30_000 });
  return { page, errors, tiles };
}

/** The map's features of the given style layers on screen, once drawn. */
function renderedStreets(page, layers) {
  return page.evaluate(
    (layers) =>
      new Promise((resolve) => {
        const map = document.querySelector('[data-testid=map]').__map;
        const read = () => resolve(map.queryRenderedFeatures({ layers }).map((f) => ({ layer: f.sourceLayer, kind: f.properties.kind, name: f.properties.name })));
        if (map.loaded()) read();
        else map.once('idle', read);
      }),
    layers,
  );
}

export const offmapCases = [
  [
    'offmap: without a street archive the map says once which setting gives it streets, and asks the internet for no more tiles',
    async ({ context }) => {
      expect(TILES && DEMO, 'scripts/e2e.sh sets E2E_TILES and E2E_TILES_DEMO');
      const { page, errors } = await offlineMap(context, 'none');
      const notice = await page.waitForSelector('[data-testid=map-streets-notice][data-notice=missing]');
      const text = await notice.textContent();
      expect(/--tiles/.test(text) && /streets\.pmtiles/.test(text), `the notice names the setting: ${text}`);
      // The first screenful of tiles failed (the browser logs each); at street zoom nothing more is asked for, and
      // the map's own errors are not logged at all: the one notice is what the operator sees.
      const failedBefore = errors.length;
      // at street zoom, once the map has settled (its tiles asked for and drawn or failed: 'idle')
      await page.evaluate(
        (v) =>
          new Promise((resolve) => {
            const map = document.querySelector('[data-testid=map]').__map;
            map.once('idle', resolve);
            map.jumpTo(v);
          }),
        STREET_VIEW,
      );
      expect((await page.$$('[data-testid=map-streets-notice]')).length === 1, 'one notice');
      expect(!(await page.evaluate(() => document.querySelector('[data-testid=map]').__map.getSource('streets'))), 'no street source without an archive');
      expect(errors.length === failedBefore, `errors at street zoom: ${errors.slice(failedBefore).join(' | ')}`);
      expect(errors.every((e) => /^Failed to load resource/.test(e)), `console errors: ${errors.join(' | ')}`);
      await page.click('[data-testid=map-streets-notice] button');
      await page.waitForSelector('[data-testid=map-streets-notice]', { state: 'detached' });
      // The user manual says the same at length.
      await page.goto(new URL('/user-manual#offline-maps', page.url()).href);
      const manual = await (await page.waitForSelector('[data-testid=manual-page] section#offline-maps')).textContent();
      expect(/Offline street maps/.test(manual) && /--tiles/.test(manual) && /streets\.pmtiles/.test(manual), `manual section: ${manual}`);
    },
  ],
  [
    'offmap: with the archive dropped in, the street map shows from the server by range requests at street zoom',
    async ({ context }) => {
      expect(TILES && DEMO, 'scripts/e2e.sh sets E2E_TILES and E2E_TILES_DEMO');
      copyFileSync(DEMO, TILES);
      try {
        const { page, errors, tiles } = await offlineMap(context, 'archive');
        const failedBefore = errors.length;
        await page.evaluate((v) => document.querySelector('[data-testid=map]').__map.jumpTo(v), STREET_VIEW);
        const seen = await until(async () => {
          const f = await renderedStreets(page, ['streets-roads', 'streets-major', 'streets-buildings']);
          return f.some((x) => x.layer === 'roads') && f.some((x) => x.layer === 'buildings') && f;
        }, 'streets and buildings drawn from the archive', 20_000, 250);
        const names = [...new Set(seen.filter((f) => f.name).map((f) => f.name))];
        expect(names.some((n) => /^Demo (Street|Avenue) \d+$/.test(n)), `road names of the demo archive: ${names.join(', ')}`);
        expect(seen.some((f) => f.kind === 'major_road') && seen.some((f) => f.kind === 'minor_road'), 'major and minor roads');
        expect((await page.$$('[data-testid=map-streets-notice]')).length === 0, 'no notice while the street map shows');
        expect(tiles.some((t) => t === '206 /tiles/streets.pmtiles'), `the archive read by ranges: ${tiles.join(', ')}`);
        expect(tiles.every((t) => /^(200|206|304) /.test(t)), `no failed archive read: ${tiles.join(', ')}`);
        expect(errors.length === failedBefore, `errors at street zoom: ${errors.slice(failedBefore).join(' | ')}`);
        // The dark theme restyles the streets too.
        await page.click('[data-testid=tool-theme]');
        await menuItem(page, 'Dark');
        await until(
          () => page.evaluate(() => document.querySelector('[data-testid=map]').__map.getPaintProperty('streets-roads', 'line-color') !== '#ffffff'),
          'dark streets',
        );
        // The archive taken away under the open map: its next tiles fail, and the map says so once.
        rmSync(TILES);
        await page.evaluate(() => document.querySelector('[data-testid=map]').__map.jumpTo({ center: [28.945, 41.028], zoom: 13 }));
        const failed = await page.waitForSelector('[data-testid=map-streets-notice][data-notice=failed]', { timeout: 20_000 });
        expect(/--tiles/.test(await failed.textContent()), 'the failure names the setting');
      } finally {
        rmSync(TILES, { force: true });
      }
    },
  ],
];
