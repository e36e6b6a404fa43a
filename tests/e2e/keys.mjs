// Browser cases of issue 19 items 1 and 2 (helper "keys"): secret keys and custom themes per host, against the real
// binary. The theme case brands host 127.0.0.3 (demo.ThemeHost, Demo Fleet's, unthemed) and opens its login page
// from another browser page; the key case rotates the key demo terminal 10000167 receives (docs/terminal-protocol.md
// "Secret key"). Both put the demo back as they found it.
import { api, consoleAt, dispatcherConsole, expect, forwarder, popConfirm, until } from './harness.mjs';
import { terminal } from './terminal.mjs';
import { png } from './files.mjs';
import { measureTexts, show } from './contrast.mjs';

const THEME_HOST = '127.0.0.3';
const KEY_TERMINAL = '10000167';

/** Sets an antd colour field's text input (data-testid theme-<field>). */
async function colour(page, field, hex) {
  await page.fill(`[data-testid=theme-${field}]`, hex);
}

export const keysCases = [
  [
    'keys: secret keys — a key is added, listed and made current, and a terminal receives it',
    async ({ context }) => {
      const t = await terminal(KEY_TERMINAL);
      try {
        const { page } = await consoleAt(context, '/secret-keys', 'secret-keys-page');
        // The demo's ring: two keys, one current.
        await until(async () => (await page.$$('[data-testid=key-row]')).length >= 2, 'the demo keys listed');
        const name = `E2E ${Date.now() % 1_000_000}`;
        await page.click('[data-testid=key-new]');
        await page.fill('[data-testid=key-name]', name);
        // A malformed key is refused in the dialog (spec §5: 32 digits and capital letters).
        await page.fill('[data-testid=key-value]', 'abc123');
        await page.click('[data-testid=key-save]');
        const problem = await page.waitForSelector('[data-testid=key-problem]');
        expect((await problem.getAttribute('data-problem')) === 'lowercase', `problem ${await problem.getAttribute('data-problem')}`);
        await page.click('[data-testid=key-generate]');
        const key = await page.inputValue('[data-testid=key-value]');
        expect(/^[0-9A-Z]{32}$/.test(key), `generated key ${key}`);
        await page.click('[data-testid=key-save]');
        const row = await page.waitForSelector(`[data-testid=key-row][data-name="${name}"]`);
        expect((await row.getAttribute('data-current')) === '0', 'a new key is not current unless asked');
        await page.click('[data-testid=keys-reveal]');
        await until(async () => (await row.textContent()).includes(key), 'the key shown in full');
        // Rotate: the terminal receives the new key at once.
        await (await row.$('[data-testid=key-make-current]')).click();
        await popConfirm(page);
        await t.waitFor('key.changed', (f) => f.data.secretKey === key, `${KEY_TERMINAL} receives the rotated key`);
        await until(async () => (await page.getAttribute(`[data-testid=key-row][data-name="${name}"]`, 'data-current')) === '1', 'the row shows current');
        // Put the demo back: the previous key current again, this one deleted.
        const list = await api(page, 'GET', '/ds/key/list');
        const mine = list.result.list.find((k) => k.name === name);
        const previous = list.result.list.find((k) => k.name === 'Radio net 2026');
        await api(page, 'PUT', '/ds/key/update', { id: previous.id, current: true });
        const del = await api(page, 'DELETE', `/ds/key/delete?id=${mine.id}`);
        expect(del.code === '0', `delete ${JSON.stringify(del)}`);
        await until(async () => !(await page.$(`[data-testid=key-row][data-name="${name}"]`)), 'the deleted key leaves the list');
      } finally {
        await t.close();
      }
    },
  ],
  [
    "keys: a theme saved in /theme for a host name changes that host's login page",
    async ({ context }) => {
      const { page } = await consoleAt(context, '/theme', 'theme-page');
      await page.click('[data-testid=theme-host]');
      await page.click(`.ant-select-item-option[title^="${THEME_HOST}"]`);
      await until(async () => (await page.textContent('[data-testid=theme-host]')).includes(THEME_HOST), 'host chosen');
      const sysName = 'Harbour Dispatch';
      await page.fill('[data-testid=theme-sysName]', sysName);
      await colour(page, 'themeColor', '#136f63');
      await colour(page, 'tabColor', '#0b3d3a');
      await colour(page, 'loginFrameColor', '#e6fffb');
      await colour(page, 'weightThemeColor', '#0b3d3a');
      await page.fill('[data-testid=theme-copyright]', '© 2026 Harbour Authority');
      // A mini logo that is not square is refused in the browser before any upload (spec §5).
      await page.setInputFiles('[data-testid=miniLogoUrl-picker] input[type=file]', {
        name: 'wide.png', mimeType: 'image/png', buffer: png(40, 20, [19, 111, 99], { transparentLeft: true }) });
      await page.waitForSelector('[data-testid=miniLogoUrl-note]');
      const logo = png(160, 48, [19, 111, 99], { transparentLeft: true });
      await page.setInputFiles('[data-testid=logoUrl-picker] input[type=file]', {
        name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await page.waitForSelector('[data-testid=preview-logo]');
      // The live preview follows the form.
      expect((await page.textContent('[data-testid=preview-title]')).includes(sysName), 'preview title');
      await page.click('[data-testid=theme-save]');
      await until(async () => !(await page.$('[data-testid=theme-save].ant-btn-loading')) && (await page.$('.ant-message-success')), 'saved');
      // The refusal is read only when there is one (an absent element would hold textContent for its 30 s timeout).
      const refused = await page.$('[data-testid=theme-error]');
      expect(!refused, `save refused: ${await refused?.textContent()}`);

      // That host's login page, opened fresh, shows the theme.
      const themed = await context.browser().newContext();
      // Light skin: antd's dark algorithm derives its own shade of the seed colour.
      await themed.addInitScript(() => localStorage.setItem('tenfour.settings', JSON.stringify({ state: { theme: 'light', stored: true }, version: 1 })));
      try {
        const login = await themed.newPage();
        await login.goto(`${await forwarder(THEME_HOST)}/login`);
        await login.waitForSelector('[data-testid=login-page]');
        await until(async () => (await login.textContent('[data-testid=login-title]')).includes(sysName), 'system name on the login page');
        const look = await login.evaluate(() => ({
          logo: document.querySelector('[data-testid=login-logo]')?.getAttribute('src') ?? '',
          frame: getComputedStyle(document.querySelector('[data-testid=login-frame]')).backgroundColor,
          button: getComputedStyle(document.querySelector('[data-testid=login-submit]')).backgroundColor,
          copyright: document.querySelector('[data-testid=login-copyright]')?.textContent ?? '',
          title: document.title,
        }));
        expect(look.logo === `data:image/png;base64,${logo.toString('base64')}`, `logo ${look.logo.slice(0, 60)}`);
        expect(look.frame === 'rgb(230, 255, 251)', `login frame colour ${look.frame}`);
        expect(look.button === 'rgb(19, 111, 99)', `primary colour ${look.button}`);
        expect(look.copyright.includes('Harbour Authority'), `copyright ${look.copyright}`);
        expect(look.title === sysName, `document title ${look.title}`);

        // Signed in at that host, the console's header bar has the tab colour; deleting the theme there puts the
        // default back at once (theme.changed), and the demo is as it was.
        const { page: there } = await dispatcherConsole(themed, await forwarder(THEME_HOST));
        const header = () => there.evaluate(() => getComputedStyle(document.querySelector('.shell-header')).backgroundColor);
        expect((await header()) === 'rgb(11, 61, 58)', `header ${await header()}`);
        const del = await api(there, 'DELETE', `/ds/custom/deleteTheme?hostname=${THEME_HOST}`);
        expect(del.code === '0', `delete ${JSON.stringify(del)}`);
        await until(async () => (await header()) === 'rgb(0, 21, 41)', 'the default header back without a reload');
      } finally {
        await themed.close();
      }
    },
  ],
  [
    'keys: contrast — /secret-keys and /theme, with a pale theme in the preview, read at WCAG AA in every skin',
    async ({ context }) => {
      const { page } = await dispatcherConsole(context);
      const failures = [];
      let checked = 0;
      const measure = async (what) => {
        const { results } = await page.evaluate(measureTexts);
        checked += results.length;
        for (const r of results) if (r.ratio < r.need) failures.push(`${what} ${r.where} ${r.fg} on ${r.bg} ${r.ratio.toFixed(2)}: "${r.text}"`);
      };
      for (const skin of ['light', 'dark', 'moonSilver', 'phantomBlack']) {
        await show(page, '/secret-keys', skin, 'blue');
        await page.waitForSelector('[data-testid=key-row]');
        await measure(`${skin} /secret-keys`);
        await show(page, '/theme', skin, 'blue');
        await page.waitForSelector('[data-testid=theme-preview]');
        // Pale colours a customer might choose: the preview (as the login page and header) corrects them.
        await colour(page, 'tabColor', '#c0fff0');
        await colour(page, 'callingColor', '#aaffaa');
        await colour(page, 'weightThemeColor', '#ffe58f');
        await colour(page, 'loginFrameColor', '#fffbe6');
        await colour(page, 'themeColor', '#ffd666');
        await page.fill('[data-testid=theme-sysName]', 'Pale Harbour');
        await page.fill('[data-testid=theme-copyright]', '© Pale Harbour');
        await until(async () => (await page.textContent('[data-testid=preview-title]')).includes('Pale Harbour'), 'preview updated');
        await measure(`${skin} /theme`);
      }
      expect(checked > 100, `only ${checked} texts measured`);
      expect(failures.length === 0, `${failures.length} texts below AA:\n  ${[...new Set(failures)].slice(0, 40).join('\n  ')}`);
    },
    { timeoutMs: 300_000 },
  ],
];
