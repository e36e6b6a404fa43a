// Browser cases of issue 33's last edges, measured at a control room's screens (1366×768 and 1600×900): the SOS
// tables' fixed Actions column covers no text, an operation-log row stays one line, and the login page of a host
// whose theme has only a name and a theme colour reads at WCAG AA. Demo terminal 10000168 raises the SOS (indoor.mjs
// walks it too; cases run one after another, and this one closes its alarm and the terminal). Imported by run.mjs;
// also runs alone: TENFOUR_URL=http://127.0.0.1:18087 node tests/e2e/edges.mjs
import { pathToFileURL } from 'node:url';
import { api, dispatcherConsole, expect, forwarder, openInApp, run, until } from './harness.mjs';
import { terminal } from './terminal.mjs';
import { measureTexts } from './contrast.mjs';

const SOS_TERMINAL = '10000168';
const SCREENS = [
  { width: 1366, height: 768 },
  { width: 1600, height: 900 },
];
/** Demo.ThemeHost (Demo Fleet's host without a theme), as the keys case uses it; this case puts it back too. */
const THEME_HOST = '127.0.0.3';
const LONG = 'Responder reached the caller by phone; the patrol car arrived at the north gate and found the caller safe, '
  + 'the fire door had been left open by the cleaning crew';

/**
 * In each table under `root`, scrolled to its right end: the text cells that some fixed-right cell covers (text
 * passing under it), the cells and headers whose text takes more than one line or spills out of its cell, and the text cells cut short
 * without a tooltip. Runs in the page.
 */
function coveredCells(root) {
  const out = { covered: [], wrapped: [], untitled: [], wide: [], rows: 0 };
  /** How many lines the text of el takes: the tops of its text nodes' line boxes, 4 px apart or more. */
  const lines = (el) => {
    const tops = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && !tops.some((t) => Math.abs(t - r.top) < 4)) tops.push(r.top);
    }
    return tops.length;
  };
  for (const th of document.querySelectorAll(`${root} thead th`)) if (lines(th) > 1) out.wrapped.push(`header "${th.textContent.trim()}"`);
  for (const scroller of document.querySelectorAll(`${root} .ant-table-content, ${root} .ant-table-body`)) {
    scroller.scrollLeft = scroller.scrollWidth;
    for (const tr of scroller.querySelectorAll('tr[data-row-key]')) {
      out.rows++;
      const fixed = tr.querySelector('td.ant-table-cell-fix-right');
      const edge = fixed ? fixed.getBoundingClientRect().left : Infinity;
      // The pinned column hides text at every other scroll position: no wider than its buttons need.
      if (fixed) {
        const buttons = [...fixed.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
        const need = buttons.length ? Math.max(...buttons.map((b) => b.right)) - Math.min(...buttons.map((b) => b.left)) : 0;
        if (fixed.getBoundingClientRect().width > need + 80) out.wide.push(`${Math.round(fixed.getBoundingClientRect().width)} px for ${Math.round(need)} px of buttons`);
      }
      for (const td of tr.querySelectorAll('td:not(.ant-table-cell-fix-right):not(.ant-table-cell-fix-left)')) {
        const text = td.textContent.trim();
        if (!text) continue;
        const range = document.createRange();
        range.selectNodeContents(td);
        const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
        if (lines(td) > 1) out.wrapped.push(`"${text.slice(0, 30)}"`);
        const box = td.getBoundingClientRect();
        if (getComputedStyle(td).overflow !== 'hidden' && [...td.querySelectorAll('*')].some((e) => e.getBoundingClientRect().right > box.right + 1)) {
          out.wrapped.push(`"${text.slice(0, 30)}" spills out of its cell`);
        }
        if (right > edge + 1) out.covered.push(`${text.slice(0, 30)} (text to ${Math.round(right)}, Actions from ${Math.round(edge)})`);
        const cut = [...td.querySelectorAll('*')].concat(td).some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow === 'ellipsis');
        if (cut && !td.querySelector('[title]') && !td.title && !td.querySelector('.ant-typography-ellipsis')) out.untitled.push(text.slice(0, 30));
      }
    }
  }
  return out;
}

/** At this screen size the tables under root hide no text under their Actions column and keep each text on one line. */
async function tableFits(page, size, root) {
  await page.setViewportSize(size);
  await until(async () => (await page.evaluate(coveredCells, root)).rows > 0, `${root} laid out`);
  const m = await page.evaluate(coveredCells, root);
  const where = `${size.width}×${size.height} ${root}`;
  expect(m.covered.length === 0, `${where}: text under Actions: ${m.covered.join('; ')}`);
  expect(m.wide.length === 0, `${where}: Actions wider than its buttons: ${m.wide[0]}`);
  expect(m.wrapped.length === 0, `${where}: text on more than one line: ${m.wrapped.join('; ')}`);
  expect(m.untitled.length === 0, `${where}: cut text without a tooltip: ${m.untitled.join('; ')}`);
}

export const edgesCases = [
  [
    'edges: the SOS tables at 1366×768 and 1600×900 — scrolled to the end, no text under the fixed Actions column; cut text keeps a tooltip',
    async ({ context }) => {
      const term = await terminal(SOS_TERMINAL);
      const { page, base } = await dispatcherConsole(context);
      let id;
      try {
        const r = await term.request('sos.raise', { lat: 41.0082, lng: 28.9784 });
        expect(r.code === '0', `sos.raise ${JSON.stringify(r)}`);
        id = r.data.id;
        // Acknowledged (a responder) and still open: the row is in both tables, with every column filled.
        const ack = await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 1 });
        expect(ack.code === '0', `acknowledge ${JSON.stringify(ack)}`);
        await page.goto(`${base}/alarm`);
        await page.waitForSelector(`[data-testid=open-row][data-id="${id}"]`, { timeout: 20_000 });
        for (const size of SCREENS) await tableFits(page, size, '[data-testid=open-alarms]');
        // Closed with a long remark: the history row has responder, closer and remark.
        const close = await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 2, remark: LONG });
        expect(close.code === '0', `close ${JSON.stringify(close)}`);
        await page.click('.ant-tabs-tab[data-node-key=history]');
        await page.click('[data-testid=history-search]');
        const row = `[data-testid=alarm-history] [data-testid=alarm-row][data-id="${id}"][data-state="2"]`;
        await page.waitForSelector(row, { timeout: 20_000 });
        for (const size of SCREENS) {
          await tableFits(page, size, '[data-testid=alarm-history]');
          // The whole remark is one hover away.
          const remark = await page.$(`${row} [data-testid=sos-remark]`);
          expect(remark, 'the remark cell');
          await remark.hover();
          await until(
            () => page.evaluate(() => [...document.querySelectorAll('[role=tooltip]')].some((e) => e.checkVisibility() && e.textContent.includes('cleaning crew'))),
            'the remark in full as a tooltip',
          );
          await page.mouse.move(0, 0);
        }
      } finally {
        if (id) await api(page, 'PUT', '/ds/sos/updateSos', { id, state: 2, remark: 'e2e cleanup' }).catch(() => {});
        await term.close();
      }
    },
  ],
  [
    'edges: the operation log at 1366×768 — every row of the history and of the live panel is one line, the whole text a hover away',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      await page.setViewportSize(SCREENS[0]);
      await openInApp(page, '/log');
      await page.waitForSelector('[data-testid=log-page] tr[data-row-key]', { timeout: 20_000 });
      await page.waitForSelector('[data-testid=log-panel] [data-testid=log-entry]', { timeout: 20_000 });
      const heights = await page.evaluate(() => {
        const one = (el) => {
          const lh = parseFloat(getComputedStyle(el).lineHeight) || 22;
          return { h: el.getBoundingClientRect().height, lh, text: el.textContent.trim().slice(0, 60) };
        };
        const table = [...document.querySelectorAll('[data-testid=log-page] tr[data-row-key] td')].map(one);
        const panel = [...document.querySelectorAll('[data-testid=log-panel] [data-testid=log-text]')].map(one);
        return { table, panel, cellPadding: 16 };
      });
      expect(heights.table.length > 0 && heights.panel.length > 0, 'rows measured');
      // A cell of one line is its line height and the small table's padding (8 px above and below).
      const tall = heights.table.filter((c) => c.h > c.lh * 1.5 + heights.cellPadding);
      expect(tall.length === 0, `history cells on more than one line: ${tall.slice(0, 5).map((c) => `${Math.round(c.h)} px "${c.text}"`).join('; ')}`);
      const tallPanel = heights.panel.filter((c) => c.h > c.lh * 1.5);
      expect(tallPanel.length === 0, `live panel lines wrapped: ${tallPanel.slice(0, 5).map((c) => `${Math.round(c.h)} px "${c.text}"`).join('; ')}`);
    },
  ],
  [
    "edges: a theme with only a name and a theme colour — the host's sign-in box (title, labels, inputs, links) reads at WCAG AA in every skin",
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      // What the theme page saves when only these two are filled in: its other fields at their defaults
      // (blankTheme in web/src/features/theme/api.ts), the sign-in box white.
      const sysName = 'Harbour Only Name';
      const save = await api(page, 'POST', '/ds/custom/customTheme', {
        hostname: THEME_HOST, sysName, themeColor: '#136f63', tabColor: '#00474f', subThemeColor: '', weightThemeColor: '',
        callingColor: '#cf1322', loginFrameColor: '#ffffff', miniLogoUrl: '', logoUrl: '', copyright: '' });
      expect(save.code === '0', `saveTheme ${JSON.stringify(save)}`);
      const themed = await context.browser().newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
      try {
        const failures = [];
        let checked = 0;
        for (const skin of ['dark', 'light', 'moonSilver', 'phantomBlack']) {
          const login = await themed.newPage();
          await login.addInitScript((s) => localStorage.setItem('tenfour.settings', JSON.stringify({ state: { theme: s, stored: true }, version: 1 })), skin);
          await login.goto(`${await forwarder(THEME_HOST)}/login`);
          await login.waitForSelector('[data-testid=login-page]');
          await until(async () => (await login.textContent('[data-testid=login-title]')).includes(sysName), `${skin}: the system name on the login page`);
          await login.fill('[data-testid=login-account]', '10000001');
          const { results } = await login.evaluate(measureTexts);
          checked += results.length;
          for (const r of results) if (r.ratio < r.need) failures.push(`${skin} ${r.where} ${r.fg} on ${r.bg} ${r.ratio.toFixed(2)}: "${r.text}"`);
          // The title and both labels are among what was measured.
          for (const want of [sysName, 'Account', 'Password']) expect(results.some((r) => r.text.startsWith(want)), `${skin}: "${want}" was not measured`);
          // The typed account: an input's value is no text node, so its colour is read against the input's own background.
          const typed = await login.evaluate(() => {
            const i = document.querySelector('[data-testid=login-account]');
            return { fg: getComputedStyle(i).color, bg: getComputedStyle(i.closest('.login-input')).backgroundColor, frame: getComputedStyle(document.querySelector('[data-testid=login-frame]')).backgroundColor };
          });
          const ratio = await login.evaluate(([fg, bg, frame]) => {
            const p = (c) => /rgba?\(([^)]+)\)/.exec(c)[1].split(/[\s,/]+/).filter(Boolean).map(Number);
            const [br, bgc, bb, ba = 1] = p(bg);
            const [fr, fgc, fb] = p(frame);
            const base = [br * ba + fr * (1 - ba), bgc * ba + fgc * (1 - ba), bb * ba + fb * (1 - ba)];
            const [tr, tg, tb, ta = 1] = p(fg);
            const text = [tr * ta + base[0] * (1 - ta), tg * ta + base[1] * (1 - ta), tb * ta + base[2] * (1 - ta)];
            const lum = (c) => c.map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
            const [hi, lo] = [lum(text), lum(base)].sort((a, b) => b - a);
            return (hi + 0.05) / (lo + 0.05);
          }, [typed.fg, typed.bg, typed.frame]);
          if (ratio < 4.5) failures.push(`${skin} typed account ${typed.fg} on ${typed.bg} ${ratio.toFixed(2)}`);
          await login.close();
        }
        expect(checked >= 24, `only ${checked} texts measured`);
        expect(failures.length === 0, `${failures.length} texts below AA:\n  ${failures.join('\n  ')}`);
      } finally {
        await themed.close();
        await api(page, 'DELETE', `/ds/custom/deleteTheme?hostname=${THEME_HOST}`).catch(() => {});
      }
    },
  ],
];

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit((await run(edgesCases)) > 0 ? 1 : 0);
