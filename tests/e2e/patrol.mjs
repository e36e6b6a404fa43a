// Browser case of issue 18 (patrol): a dispatcher creates a patrol point, a route and a plan in the console; the
// phone app of the plan's terminal (10000161, left to this case by the quiet fleet) punches the point with
// "I am here" at its position, and the console's open order shows the point punched, live.
import { dispatcherConsole, expect, until } from './harness.mjs';
import { MOBILE, phoneSignIn, withContexts } from './voice.mjs';

const PATROLLER = '10000161';
const POSITION = { latitude: 41.0507, longitude: 28.9903 };

/** Picks the option with this text in the antd Select with the test id (or under the element with it). */
async function pick(page, testid, text) {
  await page.click(`[data-testid=${testid}]`);
  const option = `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option:has-text("${text}")`;
  await page.waitForSelector(option, { timeout: 10_000 });
  await page.click(option);
}

export const patrolCases = [
  [
    'patrol: a point and a plan made in the console, the phone app punches by "I am here" and the order shows the point punched live',
    () =>
      withContexts('patrol', async (open) => {
        const stamp = Date.now().toString(36);
        const pointName = `E2E gate ${stamp}`;
        const routeName = `E2E route ${stamp}`;
        const planName = `E2E plan ${stamp}`;
        const { page, base } = await dispatcherConsole(await open());

        // The point: the NFC check refuses a value the area has, then the point is saved.
        await page.goto(`${base}/patrol-point`);
        await page.waitForSelector('[data-testid=patrol-points]', { timeout: 20_000 });
        await page.click('[data-testid=point-new]');
        await pick(page, 'point-area', 'North Campus');
        await page.fill('[data-testid=point-name]', pointName);
        await page.fill('[data-testid=point-nfc]', 'NFC-1001'); // the demo's Main gate tag
        await page.waitForSelector('.ant-form-item-explain-error:has-text("NFC value is taken")', { timeout: 10_000 });
        await page.fill('[data-testid=point-nfc]', `E2E-${stamp}`);
        await page.fill('input[data-testid=point-lat], [data-testid=point-lat] input', String(POSITION.latitude));
        await page.fill('input[data-testid=point-lng], [data-testid=point-lng] input', String(POSITION.longitude));
        await page.fill('input[data-testid=point-radius], [data-testid=point-radius] input', '60');
        await page.click('[data-testid=point-save]');
        await page.waitForSelector(`[data-testid=point-row][data-name="${pointName}"]`, { timeout: 15_000 });

        // The route (this one point) and the plan: its default class began this hour, the phone-app terminal walks it.
        await page.goto(`${base}/patrol-plan`);
        await page.waitForSelector('[data-testid=patrol-plans]', { timeout: 20_000 });
        await page.click('.ant-tabs-tab:has-text("Routes")');
        await page.click('[data-testid=route-new]');
        await page.fill('[data-testid=route-name]', routeName);
        await pick(page, 'route-area', 'North Campus');
        await pick(page, 'route-add-point', pointName);
        await page.waitForSelector(`[data-testid=route-point]:has-text("${pointName}")`);
        await page.click('[data-testid=route-save]');
        await page.waitForSelector(`[data-testid=route-row][data-name="${routeName}"]`, { timeout: 15_000 });
        await page.click('.ant-tabs-tab:has-text("Plans")');
        await page.click('[data-testid=plan-new]');
        await page.fill('[data-testid=plan-name]', planName);
        await pick(page, 'plan-area', 'North Campus');
        await pick(page, 'plan-route', routeName);
        await pick(page, 'plan-class-user', PATROLLER);
        await page.click('[data-testid=plan-save]');
        await page.waitForSelector(`[data-testid=plan-row][data-name="${planName}"]`, { timeout: 15_000 });

        // Its order of today, open in the console: the point not punched yet.
        await page.goto(`${base}/patrol-sys`);
        await page.waitForSelector('[data-testid=patrol-sys-page]', { timeout: 20_000 });
        await page.click('.ant-tabs-tab:has-text("Orders")');
        const row = `[data-testid=order-row]:has-text("${planName}")`;
        await page.waitForSelector(row, { timeout: 15_000 });
        await page.click(row);
        const point = `[data-testid=order-point][data-name="${pointName}"]`;
        await page.waitForSelector(`${point}[data-state="0"]`, { timeout: 15_000 });

        // The phone app at the point: "I am here".
        const { page: phone } = await phoneSignIn(await open({ ...MOBILE, permissions: ['geolocation'], geolocation: POSITION }), PATROLLER);
        await phone.click('[data-testid=phone-patrol-button]');
        const phonePoint = `[data-testid=phone-patrol-point]:has-text("${pointName}")`;
        await phone.waitForSelector(`${phonePoint}[data-state="0"]`, { timeout: 15_000 });
        await phone.click('[data-testid=phone-patrol-here]');
        await phone.waitForSelector(`${phonePoint}[data-state="1"]`, { timeout: 15_000 });
        const last = await phone.getAttribute('[data-testid=phone-patrol-last]', 'data-state');
        expect(last === '1', `the punch's log state ${last}`);

        // The console's open order shows it punched without a reload.
        await page.waitForSelector(`${point}[data-state="1"]`, { timeout: 15_000 });
        await until(async () => (await page.textContent(`${row}`)).includes('1/1'), 'the order row shows 1/1 punched');
      }),
  ],
];
