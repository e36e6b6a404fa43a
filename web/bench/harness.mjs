// What both benchmarks share: a static server for the page Vite built into outDir, and Debian's Chromium.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { chromium } from 'playwright-core';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.geojson': 'application/json' };

/** Serves outDir on a free local port and starts the browser; url is the address of `page` (e.g. bench/map.html). */
export async function serveAndLaunch(outDir, page) {
  const server = createServer(async (req, res) => {
    try {
      const path = join(outDir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
      const body = await readFile(path);
      res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/${page}`,
    browser,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

/**
 * Runs run() and fails at the page's first uncaught error meanwhile, instead of waiting for a mark that will never
 * come (a component that throws leaves the benchmark's wait for its rows running until the step's time is up). An
 * error after run() has settled is the next call's, or the page's logged one: it rejects nothing unhandled.
 */
export function failingOnPageError(page, run) {
  const failed = new Promise((_, reject) => page.once('pageerror', (e) => reject(new Error(`page error: ${e.message}`))));
  failed.catch(() => {});
  return Promise.race([run(), failed]);
}
