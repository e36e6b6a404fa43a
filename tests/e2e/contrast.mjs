// Browser case of issue 15 item 5: text contrast (WCAG 2.x AA) on every theme and primary colour. One console page
// for the whole case: each combination is chosen in the settings dialog (Skin tab) as a dispatcher does, the screens
// are opened from inside the app (no reload: a reload per combination cost about 2 s of start-up each), and every
// visible text of the header, menu, sider and main screen is measured against the background it is painted on (the
// stack of elements under it, composited). AA: 4.5:1, large text (24 px, or 18.66 px bold) 3:1.
import { dispatcherConsole, expect, openInApp, until } from './harness.mjs';

const THEMES = ['light', 'dark', 'moonSilver', 'phantomBlack'];
const PRIMARIES = ['blue', 'green', 'redsea', 'sfsp', 'safe'];
/** The dispatch screen in every theme × primary colour; these screens too in every theme. */
const MORE_SCREENS = ['/message', '/log', '/alarm', '/report'];
const SETTINGS_KEY = 'tenfour.settings';
/** What a screen shows once its data is in (measured then, not before). */
const READY = { '/home': '[data-testid=terminal-row][data-cid]' };

/** The stored theme and primary colour (what the settings dialog saved). */
const storedSkin = (page) =>
  page.evaluate((key) => {
    const s = JSON.parse(localStorage.getItem(key) ?? '{}').state ?? {};
    return { theme: s.stored ? s.theme : undefined, primary: s.primaryColor };
  }, SETTINGS_KEY);

/**
 * Chooses theme and primary colour in the settings dialog (Skin tab) and waits until the page shows them. The clicks
 * are the page's own (element.click() as the dialog opens), not Playwright's, which waits out every animation of the
 * modal first: about 4 s a combination on the CI machine, more than the reload this replaced.
 */
export async function skin(page, theme, primary) {
  const cur = await storedSkin(page);
  if (cur.theme === theme && cur.primary === primary) return;
  await page.evaluate(async ([theme, primary]) => {
    const visible = (el) => el?.checkVisibility() && el;
    const find = async (what, get) => {
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
        const el = get();
        if (el) return el;
      }
      throw new Error(`settings dialog: no ${what}`);
    };
    document.querySelector('[data-testid=settings-button]').click();
    const dialog = await find('dialog', () => visible(document.querySelector('[data-testid=settings-theme]')?.closest('.ant-modal-container')));
    (await find('Skin tab', () => visible(dialog.querySelector('.ant-tabs-tab[data-node-key=skin] .ant-tabs-tab-btn')))).click();
    (await find(`theme ${theme}`, () => visible(dialog.querySelector(`[data-testid=settings-theme] .ant-radio-button-wrapper:has(input[value="${theme}"])`)))).click();
    (await find(`colour ${primary}`, () => visible(dialog.querySelector(`.ant-radio-button-wrapper:has([data-testid=primary-${primary}])`)))).click();
    dialog.querySelector('.ant-modal-footer .ant-btn-primary').click();
    await find('dialog closed', () => !visible(document.querySelector('[data-testid=settings-theme]')));
  }, [theme, primary]);
  await until(async () => {
    const now = await storedSkin(page);
    return now.theme === theme && now.primary === primary && (await page.evaluate((t) => document.documentElement.dataset.theme === t, theme));
  }, `${theme}/${primary} applied`);
}

/** Shows `path` in theme and primary colour (chosen in the settings dialog, the screen opened in the app) and waits for it. */
export async function show(page, path, theme, primary) {
  await skin(page, theme, primary);
  await openInApp(page, path);
  if (READY[path]) await page.waitForSelector(READY[path], { timeout: 20_000 });
  // The screen has rendered its content (lazy chunks, first data) and nothing is still fading in.
  await until(
    () => page.evaluate(() => !document.querySelector('.ant-spin-spinning, .shell-spin') && document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)),
    `${path} rendered`,
  );
}

/** Every visible text on the page with its contrast ratio and the ratio it needs (runs in the page). */
export function measureTexts() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  // Computed styles and cumulative opacities, each read once per element.
  const styles = new Map();
  const styleOf = (e) => {
    let cs = styles.get(e);
    if (!cs) styles.set(e, (cs = getComputedStyle(e)));
    return cs;
  };
  const opacities = new Map();
  const opacityOf = (e) => {
    if (!e) return 1;
    let o = opacities.get(e);
    if (o === undefined) opacities.set(e, (o = Number(styleOf(e).opacity) * opacityOf(e.parentElement)));
    return o;
  };
  const hex = ({ r, g, b }) => '#' + [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  const EXEMPT = [
    '[disabled]',
    '[aria-disabled=true]',
    '[aria-hidden=true]',
    '[class*=-disabled]',
    '.maplibregl-ctrl-attrib', // the map's attribution, painted over tiles
  ].join(',');
  /** The background under point (x, y) where el is: the stack below it composited; null when not a flat colour. */
  const backgroundAt = (el, x, y) => {
    const stack = document.elementsFromPoint(x, y);
    const i = stack.findIndex((s) => s === el || el.contains(s) || s.contains(el));
    if (i < 0) return undefined; // covered by something else
    const layers = [];
    for (const s of stack.slice(i)) {
      if (s !== el && el.contains(s)) continue;
      const cs = styleOf(s);
      if (cs.backgroundImage !== 'none' || ['CANVAS', 'IMG', 'VIDEO', 'svg'].includes(s.tagName)) return null;
      const bg = parse(cs.backgroundColor);
      if (bg && bg.a > 0) layers.push(bg);
      if (bg && bg.a >= 1) break;
    }
    let out = { r: 255, g: 255, b: 255, a: 1 };
    for (const l of layers.reverse()) out = over(l, out);
    return out;
  };
  const results = [];
  let skipped = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent.trim() || el.closest(EXEMPT) || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName)) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rect = [...range.getClientRects()].find((r) => r.width > 1 && r.height > 1);
    if (!rect || rect.bottom <= 0 || rect.right <= 0 || rect.top >= innerHeight || rect.left >= innerWidth) continue;
    seen.add(el);
    const x = Math.min(Math.max(rect.left + rect.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(rect.top + rect.height / 2, 0), innerHeight - 1);
    const bg = backgroundAt(el, x, y);
    if (bg === undefined) continue;
    if (bg === null) {
      skipped++;
      continue;
    }
    const cs = styleOf(el);
    const fg = parse(cs.color);
    if (!fg) {
      skipped++;
      continue;
    }
    const text = over({ ...fg, a: fg.a * opacityOf(el) }, bg);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const where = el.closest('[data-testid]')?.dataset.testid ?? el.closest('[class]')?.className.toString().split(' ')[0] ?? el.tagName;
    results.push({ text: n.textContent.trim().slice(0, 40), where, ratio: ratio(text, bg), need: large ? 3 : 4.5, fg: hex(text), bg: hex(bg) });
  }
  return { results, skipped };
}

export const contrastCases = [
  [
    'contrast: every text of the header, menu, sider and main screens meets WCAG AA in every theme and primary colour',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      // One line per place and colour pair (a list of log rows fails once), with an example text.
      const failures = new Map();
      let checked = 0;
      const check = async (path, theme, primary) => {
        await show(page, path, theme, primary);
        const { results } = await page.evaluate(measureTexts);
        checked += results.length;
        for (const r of results) {
          const key = `${theme}/${primary} ${path} ${r.where} ${r.fg} on ${r.bg}`;
          if (r.ratio < r.need && !failures.has(key)) failures.set(key, `${key} ${r.ratio.toFixed(2)} < ${r.need}: "${r.text}"`);
        }
        return results;
      };
      for (const theme of THEMES) {
        for (const primary of PRIMARIES) {
          const results = await check('/home', theme, primary);
          // The label of the issue: "Messages" in the header menu is measured (and must pass) everywhere.
          expect(
            results.some((r) => r.text === 'Messages'),
            `${theme}/${primary}: the Messages menu label was not measured`,
          );
        }
        for (const path of MORE_SCREENS) await check(path, theme, 'blue');
      }
      expect(checked > 500, `only ${checked} texts measured`);
      const lines = [...failures.values()];
      expect(lines.length === 0, `${lines.length} places below AA:\n  ${lines.slice(0, 60).join('\n  ')}`);
    },
    { timeoutMs: 480_000 },
  ],
];
