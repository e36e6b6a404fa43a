// Browser cases of issue 18 item 3 (job tickets): a ticket made in the console at /job-ticketing reaches the phone
// app, which accepts, starts and completes it; the console shows each state live, the history keeps every step,
// and /job-tick-data counts it. Accounts 10000163/10000164 (app terminals left to people and this suite).
import { api, dispatcherConsole, expect, until } from './harness.mjs';
import { MOBILE, phonePage, withContexts } from './voice.mjs';

const PHONE = '10000163';
const PHONE_2 = '10000164';

/** The state (spec §4) of the ticket of msId in the console's row of the job with that task. */
async function ticketState(page, task, msId) {
  const row = page.locator('[data-testid=job-row]', { hasText: task });
  if ((await row.count()) === 0) return null;
  const tag = row.locator(`[data-testid=job-ticket][data-ms="${msId}"]`);
  if ((await tag.count()) === 0) return null;
  return tag.getAttribute('data-state');
}

export const jobsCases = [
  [
    'job tickets: sent from the console to the phone app, accepted, started and completed there, each state live in the console and in the history; rejection needs a reason',
    () =>
      withContexts('jobs-phone', async (open) => {
        const { page: con, base } = await dispatcherConsole(await open());
        const { page: phone } = await phonePage(await open(MOBILE), PHONE, base);
        await con.goto(`${base}/job-ticketing`);
        await con.waitForSelector('[data-testid=job-ticketing-page][data-socket=online]', { timeout: 20_000 });

        const task = `E2E pump check ${Date.now()}`;
        await con.click('[data-testid=job-new]');
        await con.waitForSelector('[data-testid=job-form]');
        await con.fill('[data-testid=job-task]', task);
        await con.fill('[data-testid=job-address]', 'Gate 4');
        await con.click('[data-testid=job-terminals]');
        await con.keyboard.type(PHONE);
        await con.click(`.ant-select-item-option:has-text("${PHONE}")`);
        await con.keyboard.press('Escape');
        // antd puts the test id on the input or on its wrapper, depending on the version: fill the input either way.
        await con.locator('[data-testid=job-lat]').locator('xpath=descendant-or-self::input').first().fill('41.0123');
        await con.locator('[data-testid=job-lng]').locator('xpath=descendant-or-self::input').first().fill('28.9756');
        await con.click('[data-testid=job-send]');
        await con.waitForSelector('[data-testid=job-form]', { state: 'hidden', timeout: 10_000 });
        await until(async () => (await ticketState(con, task, PHONE)) === '0', 'the new ticket in the console (unsettled)');

        // The phone gets it (job.deliver), shows it with its place, and the console sees it delivered.
        const card = `[data-testid=phone-job]:has-text("${task}")`;
        await phone.click('[data-testid=phone-jobs-button]');
        await phone.waitForSelector(`${card}[data-state="0"]`, { timeout: 20_000 });
        const map = await phone.getAttribute(`${card} [data-testid=phone-job-map]`, 'href');
        expect(map === 'geo:41.0123,28.9756?q=41.0123,28.9756', `map link ${map}`);
        await until(
          async () => (await con.locator('[data-testid=job-row]', { hasText: task }).locator('[data-testid=job-ticket][data-delivered="1"]').count()) === 1,
          'delivered in the console',
        );

        await phone.click(`${card} [data-testid=phone-job-accept]`);
        await phone.waitForSelector(`${card}[data-state="1"]`, { timeout: 10_000 });
        await until(async () => (await ticketState(con, task, PHONE)) === '1', 'accepted in the console');
        await phone.click(`${card} [data-testid=phone-job-start]`);
        await until(async () => (await ticketState(con, task, PHONE)) === '3', 'working in the console');
        await phone.click(`${card} [data-testid=phone-job-complete]`);
        await phone.fill(`${card} [data-testid=phone-job-text]`, 'Pump restarted');
        await phone.click(`${card} [data-testid=phone-job-confirm]`);
        await until(async () => (await ticketState(con, task, PHONE)) === '4', 'completed in the console');
        expect((await phone.locator(`${card} .p-job-actions button`).count()) === 0, 'no step left on a completed ticket');

        // The history of the ticket: sent, received, accepted, started, completed.
        await con.locator('[data-testid=job-row]', { hasText: task }).locator('[data-testid=job-history-open]').click();
        await until(async () => (await con.locator('[data-testid=job-history-entry]').count()) === 5, 'five history entries');
        const actions = await con.locator('[data-testid=job-history-entry]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
        expect(actions.join(',') === 'created,delivered,accepted,started,completed', `history ${actions}`);

        // A second ticket, sent over the API to a terminal that is offline: it waits, and the phone gets it at login.
        const task2 = `E2E fence ${Date.now()}`;
        const r = await api(con, 'POST', '/ds/job/add', { job: task2, msIds: PHONE_2 });
        expect(r.code === '0', `add ${JSON.stringify(r)}`);
        const { page: phone2 } = await phonePage(await open(MOBILE), PHONE_2, base);
        await phone2.click('[data-testid=phone-jobs-button]');
        const card2 = `[data-testid=phone-job]:has-text("${task2}")`;
        await phone2.waitForSelector(`${card2}[data-state="0"]`, { timeout: 20_000 });
        await phone2.click(`${card2} [data-testid=phone-job-reject]`);
        expect(await phone2.isDisabled(`${card2} [data-testid=phone-job-confirm]`), 'a rejection without a reason cannot be sent');
        await phone2.fill(`${card2} [data-testid=phone-job-text]`, 'Too far away');
        await phone2.click(`${card2} [data-testid=phone-job-confirm]`);
        await until(async () => (await ticketState(con, task2, PHONE_2)) === '2', 'rejected in the console');

        // The report counts them (this month, these terminals).
        await con.goto(`${base}/job-tick-data`);
        await con.waitForSelector('[data-testid=job-tick-data-page]');
        await until(async () => Number(await con.getAttribute('[data-testid=job-tick-data-page]', 'data-total')) >= 2, 'the report counts the tickets');
      }),
  ],
  [
    'school bus: the phone app reads a student card (boarded), the bus terminal\'s panel in the console shows the student aboard live, and gone after the alighting; the panel opens a job ticket for that terminal',
    () =>
      withContexts('jobs-bus', async (open) => {
        const { page: con, base } = await dispatcherConsole(await open());
        const BUS = PHONE_2;
        const num = `E2E-${Date.now() % 1e8}`;
        const r = await api(con, 'POST', '/ds/schoolCar/add', { studentNum: num, studentName: 'Elif E2E', guardianName: 'Ayşe', guardianPhone: '+90 532 000 00 00' });
        expect(r.code === '0', `add student ${JSON.stringify(r)}`);
        const { page: phone } = await phonePage(await open(MOBILE), BUS, base);

        await con.fill('[data-testid=tree-search] input', BUS);
        await con.click(`[data-testid=terminal-row][data-cid="${BUS}"]`);
        await con.waitForSelector(`[data-testid=terminal-info][data-cid="${BUS}"]`);

        await phone.click('[data-testid=phone-menu-button]');
        await phone.click('[data-testid=phone-bus-open]');
        await phone.fill('[data-testid=phone-bus-card]', num);
        await phone.click('[data-testid=phone-bus-board]');
        await phone.waitForSelector('[data-testid=phone-bus-last]:has-text("Elif E2E")', { timeout: 10_000 });
        await con.waitForSelector(`[data-testid=bus-onboard] [data-testid=bus-student][data-num="${num}"]`, { timeout: 15_000 });

        await phone.fill('[data-testid=phone-bus-card]', num);
        await phone.click('[data-testid=phone-bus-alight]');
        await until(async () => (await con.locator(`[data-testid=bus-student][data-num="${num}"]`).count()) === 0, 'the student left the bus in the panel');
        const list = await api(con, 'GET', `/ds/schoolCar/list?keyword=${num}`);
        expect(list.code === '0' && list.result.list[0]?.onBus === '' && list.result.list[0]?.lastPunch?.kind === 2, `list ${JSON.stringify(list)}`);

        // From the tree: the panel's "Job ticket…" opens the form with this terminal chosen.
        await con.click('[data-testid=info-job]');
        await con.waitForSelector('[data-testid=job-form]', { timeout: 15_000 });
        await con.waitForSelector(`[data-testid=job-form] .ant-select-selection-item:has-text("${BUS}")`, { timeout: 10_000 });
      }),
  ],
];
