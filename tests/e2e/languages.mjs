// Issue 15 item 6: the language switched at runtime reaches relative times (the date library's locale) and the
// operation log (entries rendered from their detail in the viewer's language, with group names, not ids).
import { dispatcherConsole, expect, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

/** A terminal of the range the quiet fleet leaves alone (cases run one after another and close it at their end). */
const T_LANG = '10000153';
const CJK = /[\u4e00-\u9fff]/;
const CYRILLIC = /[\u0400-\u04ff]/;

/** Picks a language in the header at runtime (no reload) and waits until the page says it is in it. */
async function chooseLanguage(page, label, tag) {
  await page.click('[data-testid=lang-select]');
  await page.click(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${label}"]`);
  await until(() => page.evaluate((tag) => document.documentElement.lang === tag, tag), `the console in ${tag}`);
}

export const languageCases = [
  [
    'languages: switched at runtime, relative times and operation-log lines follow (a group switch names its groups in Russian)',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      // The terminal switches its talk group (log 8), then goes offline (its row shows when it was last seen).
      const term = await terminal(T_LANG);
      const list = await term.request('group.list');
      expect(list.code === '0' && list.data.groups.length > 0, `group.list ${JSON.stringify(list)}`);
      const groups = list.data.groups;
      const from = groups.find((g) => g.gid === list.data.pttGroup);
      const to = groups.find((g) => g.gid !== list.data.pttGroup) ?? groups[0];
      const sw = await term.request('group.switch', { gid: to.gid });
      expect(sw.code === '0', `group.switch ${JSON.stringify(sw)}`);
      await term.close();

      // The log screen: the switch's line (the newest log-8 row of the terminal; rows are newest first).
      await page.goto(`${base}/log`);
      await page.waitForSelector('[data-testid=log-page]');
      await page.evaluate(() => (window.__noReload = true));
      const line = `[data-testid=log-panel] [data-testid=log-entry][data-type="8"][data-account="${T_LANG}"]`;
      const text = () => page.textContent(line);
      const names = [to.name, from ? from.name : ''];
      await until(async () => (await text())?.includes(`switched to group ${to.name}`), 'the switch in English with the group name', 15_000);
      expect(!/group \d+ \(from \d+\)/.test(await text()), `raw group ids: ${await text()}`);

      await chooseLanguage(page, '简体中文', 'zh-CN');
      await until(async () => (await text())?.includes(`切换到群组 ${to.name}`), 'the switch in Chinese', 10_000);
      // Chinese is drawn in the console's font stack, whose bundled CJK fallback loads the slices it needs (a
      // machine without CJK fonts shows boxes otherwise): the log line's own font resolves to loaded faces.
      const cjk = await page.$eval(line, async (el) => {
        const family = getComputedStyle(el).fontFamily;
        const faces = await document.fonts.load(`14px ${family}`, el.textContent);
        return { family, loaded: faces.filter((f) => f.family.replace(/"/g, '') === 'tenfour CJK' && f.status === 'loaded').length };
      });
      expect(cjk.family.includes('tenfour CJK') && cjk.loaded > 0, `the CJK fallback font: ${JSON.stringify(cjk)}`);
      await chooseLanguage(page, 'Русский', 'ru-RU');
      await until(async () => {
        const s = await text();
        return s.includes(`перешёл в группу ${to.name}`) && (!from || s.includes(`(из ${from.name})`)) && !CJK.test(s) && s;
      }, `the switch in Russian with ${names.join(' / ')}`, 10_000);

      expect(await page.evaluate(() => window.__noReload === true), 'the log page was reloaded');

      // The tree: the terminal's "last seen" in Russian, then 中文 → Русский at runtime.
      await page.goto(`${base}/home`);
      await page.waitForSelector('[data-testid=home-page]');
      await page.evaluate(() => (window.__noReload = true));
      await page.fill('[data-testid=tree-search] input', T_LANG);
      const seen = `[data-testid=terminal-row][data-cid="${T_LANG}"] .trow-seen`;
      const seenText = () => page.textContent(seen);
      await page.waitForSelector(seen, { timeout: 15_000 });
      await until(async () => /назад/.test(await seenText()) && !CJK.test(await seenText()), 'last seen in Russian', 10_000);
      await chooseLanguage(page, '简体中文', 'zh-CN');
      await until(async () => {
        const s = await seenText();
        return /前/.test(s) && !CYRILLIC.test(s) && s;
      }, 'last seen in Chinese', 10_000);
      await chooseLanguage(page, 'Русский', 'ru-RU');
      await until(async () => {
        const s = await seenText();
        return /назад/.test(s) && !CJK.test(s) && s;
      }, 'last seen in Russian after 中文 → Русский (not «был(а) … 分钟前»)', 10_000);
      expect(await page.evaluate(() => window.__noReload === true), 'the page was reloaded');
      await chooseLanguage(page, 'English', 'en-US');
    },
  ],
];
