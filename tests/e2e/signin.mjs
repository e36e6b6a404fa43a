// Browser cases of issue 33's sign-in and settings edges: an administrator unlocks a locked account from the
// console (unlockUser), the login page offers e-mail code sign-in (loginext flag=1), and a host's topIco and
// moreScreenUrl are used (demo host 127.0.0.2). Account: demo console 10000159 (a dispatcher, not an administrator),
// which no other case uses: it is locked here and unlocked again. Imported by run.mjs; also runs alone: TENFOUR_URL=http://127.0.0.1:18093 node
// tests/e2e/signin.mjs
import { pathToFileURL } from 'node:url';
import { DISPATCHER, dispatcherConsole, expect, forwarder, menuItem, run, submitLogin, until } from './harness.mjs';

const LOCKED = '10000159';
const BRANDED_HOST = '127.0.0.2';

/** One password check of uid (POST /ds/user) through base (a forwarder: its own client address); its code. */
async function passwordCheck(base, uid, auth) {
  const res = await fetch(`${base}/ds/user`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ uid, auth }) });
  const env = await res.json();
  return String(env.code);
}

export const signinCases = [
  [
    'sign-in edges: an administrator unlocks a locked account from the console, and it signs in again',
    async ({ context }) => {
      // Five wrong passwords lock the account; the right one is then refused (107, locked).
      const base = await forwarder();
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push(await passwordCheck(base, LOCKED, 'wrong-password'));
      expect(codes.slice(0, 4).every((c) => c === '2') && codes[4] === '107', `wrong passwords answered ${codes.join(',')}`);
      expect((await passwordCheck(base, LOCKED, DISPATCHER.pwd)) === '107', 'the right password is refused while locked');

      // A dispatcher who is no administrator is offered no unlocking (the server would answer 107 no permission).
      const locked = { uid: LOCKED, pwd: DISPATCHER.pwd };
      const blocked = await context.newPage();
      await submitLogin(blocked, base, locked.uid, locked.pwd);
      expect((await (await blocked.waitForSelector('[data-testid=login-error]', { timeout: 20_000 })).getAttribute('data-code')) === '502', 'the login page says locked');

      const { page } = await dispatcherConsole(context);
      await page.click('[data-testid=user-menu]');
      await menuItem(page, 'Change password');
      await page.waitForSelector('.ant-modal .ant-tabs-tab:has-text("Change password") >> visible=true');
      await page.click('.ant-modal .ant-tabs-tab:has-text("Unlock account")');
      await page.fill('[data-testid=unlock-uid]', LOCKED);
      await page.click('[data-testid=unlock-submit]');
      // A confirmation first, then the result.
      await page.waitForSelector(`.ant-popconfirm:has-text("Unlock account ${LOCKED}?") >> visible=true`);
      await page.click('[data-testid=unlock-confirm]');
      await page.waitForSelector(`.ant-message-notice:has-text("Account ${LOCKED} is unlocked")`);
      // An unknown account is said to be unknown, not unlocked.
      await page.fill('[data-testid=unlock-uid]', '99999999');
      await page.click('[data-testid=unlock-submit]');
      await page.click('[data-testid=unlock-confirm] >> visible=true');
      await page.waitForSelector('.ant-message-notice-error >> visible=true');

      // The unlocked dispatcher signs in at once; its own account menu has no unlocking.
      const other = await dispatcherConsole(context, base, locked);
      await other.page.click('[data-testid=user-menu]');
      await menuItem(other.page, 'Change password');
      await other.page.waitForSelector('.ant-modal .ant-tabs-tab:has-text("Bind e-mail") >> visible=true');
      expect(!(await other.page.$('.ant-modal .ant-tabs-tab:has-text("Unlock account")')), 'no unlocking for a dispatcher who is no administrator');
    },
  ],
  [
    'sign-in edges: the login page offers e-mail code sign-in, and the code is checked (loginext flag=1)',
    async ({ context }) => {
      const base = await forwarder();
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.waitForSelector('[data-testid=login-page]');
      expect(!(await page.$('[data-testid=login-code]')), 'a password sign-in by default');
      await page.click('[data-testid=login-code-toggle]');
      await page.waitForSelector('[data-testid=login-code]');
      await page.fill('[data-testid=login-account]', DISPATCHER.uid);
      await page.fill('[data-testid=login-password]', DISPATCHER.pwd);
      // The demo has no mail server and its dispatcher no bound address: the code request says which.
      await page.click('[data-testid=login-send-code]');
      const note = await page.waitForSelector('[data-testid=login-code-note]');
      const text = (await note.textContent()) ?? '';
      expect(/No e-mail is bound|could not be sent/.test(text), `code request note: ${text}`);
      // The right password with a wrong code is refused: the code is sent and checked (a password-only sign-in
      // of the same account succeeds).
      await page.click('[data-testid=login-submit]');
      await page.waitForSelector('text=Please enter the 6-digit code from your e-mail.');
      await page.fill('[data-testid=login-code]', '000000');
      await page.click('[data-testid=login-submit]');
      const error = await page.waitForSelector('[data-testid=login-error]', { timeout: 20_000 });
      expect((await error.getAttribute('data-code')) === '102', `code sign-in refused with ${await error.getAttribute('data-code')}`);
      expect(page.url().endsWith('/login'), `still on the login page: ${page.url()}`);
      // The session the right password opened alongside is ended, its cookie with it.
      expect(!(await context.cookies()).some((c) => c.name === 'token' && c.value), 'no session cookie after the refused code');
      await page.click('[data-testid=login-code-toggle]');
      await page.click('[data-testid=login-submit]');
      await page.waitForSelector('[data-testid=home-page]', { timeout: 60_000 });
    },
  ],
  [
    "sign-in edges: a branded host's top bar shows its topIco and the multi-screen launcher opens its moreScreenUrl",
    async ({ context }) => {
      const branded = await forwarder(BRANDED_HOST);
      const { page } = await dispatcherConsole(context, branded);
      const config = await page.evaluate(async (h) => (await (await fetch(`/ds/pub/clientConfig?hostname=${h}`)).json()).result, BRANDED_HOST);
      expect(config.topIco?.startsWith('data:image/') && config.moreScreenUrl, `the host's config ${JSON.stringify(config)}`);
      const icon = await page.waitForSelector('[data-testid=brand] [data-testid=brand-logo]');
      expect((await icon.getAttribute('src')) === config.topIco, 'the top bar shows topIco');
      expect(await icon.evaluate((img) => img.complete && img.naturalWidth > 0), 'topIco loads');
      const [popup] = await Promise.all([context.waitForEvent('page'), page.click('[data-testid=more-screens]')]);
      await popup.waitForLoadState();
      expect(new URL(popup.url()).pathname === config.moreScreenUrl, `the launcher opened ${popup.url()}`);
      await popup.close();
      // A host without them: the plain mark and no launcher.
      const plain = await dispatcherConsole(context);
      await plain.page.waitForSelector('[data-testid=brand]');
      expect(!(await plain.page.$('[data-testid=brand-logo]')), 'no icon on a host without one');
      expect(!(await plain.page.$('[data-testid=more-screens]')), 'no launcher on a host without a moreScreenUrl');
    },
  ],
];

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit((await run(signinCases)) > 0 ? 1 : 0);
