// Browser case of issue 33 (the school-bus screen): a student is added at /school-bus with a photo and edited, a
// repeated card number is refused with its coded sentence; a bus terminal's punches (over the terminal socket, as
// a card reader sends them: the suite's fleet is quiet) appear live in the list and in the student's history; the
// terminal's panel lists the student below its name; the student is deleted. Demo terminal 10000167 (left to
// cases; the keys case drives it too, one case at a time).
import { consoleAt, expect, openInApp, until } from './harness.mjs';
import { terminal } from './terminal.mjs';
import { png } from './files.mjs';

const BUS = '10000167';

/** The student's row in the list (data-* of the screen's table). */
const row = (num) => `[data-testid=student-row][data-num="${num}"]`;

/** Fills the student dialog's fields that are given. */
async function fill(page, fields) {
  for (const [id, value] of Object.entries(fields)) await page.fill(`[data-testid=student-${id}]`, value);
}

export const schoolbusCases = [
  [
    'school bus: a student added with a photo and edited at /school-bus, a taken number refused; punches appear live in the list and the history, the terminal panel lists the student below its name; deleted',
    async ({ context }) => {
      const bus = await terminal(BUS);
      try {
        const { page } = await consoleAt(context, '/school-bus', 'schoolbus-page');
        await page.waitForSelector('[data-testid=socket-status][data-status=online]', { timeout: 20_000 });
        const num = `E2E-${Date.now() % 1e8}`;

        // Add, with a photo uploaded to the file service.
        await page.click('[data-testid=student-new]');
        await fill(page, { num, name: 'Deniz E2E', guardian: 'Ayşe', phone: '+90 532 000 00 00' });
        await page.setInputFiles('[data-testid=student-form] input[type=file]', { name: 'deniz.png', mimeType: 'image/png', buffer: png() });
        await until(async () => (await page.getAttribute('[data-testid=student-photo]', 'data-src'))?.startsWith('/filews/files/'), 'the photo uploaded');
        await page.click('[data-testid=student-save]');
        await page.waitForSelector(row(num), { timeout: 10_000 });
        expect((await page.locator(`${row(num)} img`).count()) === 1, 'the photo shown in the row');

        // The same number again: the server's code 138, worded in the dialog's language; the dialog stays open.
        await page.click('[data-testid=student-new]');
        await fill(page, { num, name: 'Other', guardian: 'Kim', phone: '5550100' });
        await page.click('[data-testid=student-save]');
        await page.waitForSelector('.ant-message-error:has-text("A student with this number exists.")', { timeout: 10_000 });
        await page.keyboard.press('Escape');
        await until(async () => (await page.locator('[data-testid=student-form]').count()) === 0, 'the dialog closed');

        // Edit the guardian.
        await page.click(`${row(num)} [data-testid=student-edit]`);
        await page.waitForSelector('[data-testid=student-form]');
        await fill(page, { guardian: 'Selin', phone: '5550199' });
        await page.click('[data-testid=student-save]');
        await page.waitForSelector(`${row(num)}:has-text("Selin")`, { timeout: 10_000 });

        // The bus reads the card: the row follows without a reload, and so does the open history.
        const boarded = await bus.request('bus.punch', { studentNum: num, kind: 1 });
        expect(boarded.code === '0', `bus.punch ${JSON.stringify(boarded)}`);
        await page.waitForSelector(`${row(num)}[data-last-kind="1"][data-onbus="${BUS}"]`, { timeout: 15_000 });
        await page.click(`${row(num)} [data-testid=student-history]`);
        await page.waitForSelector('[data-testid=punch-history] [data-testid=punch-row][data-kind="1"]', { timeout: 10_000 });
        const alighted = await bus.request('bus.punch', { studentNum: num, kind: 2 });
        expect(alighted.code === '0', `bus.punch ${JSON.stringify(alighted)}`);
        await page.waitForSelector('[data-testid=punch-history] [data-testid=punch-row][data-kind="2"]', { timeout: 15_000 });
        await page.waitForSelector(`${row(num)}[data-last-kind="2"][data-onbus=""]`, { timeout: 15_000 });
        await page.keyboard.press('Escape');

        // Aboard again: the terminal's panel lists the student right below the terminal's name and actions.
        expect((await bus.request('bus.punch', { studentNum: num, kind: 1 })).code === '0', 'boarded again');
        await openInApp(page, '/home');
        await page.fill('[data-testid=tree-search] input', BUS);
        await page.click(`[data-testid=terminal-row][data-cid="${BUS}"]`);
        await page.waitForSelector(`[data-testid=terminal-info][data-cid="${BUS}"] [data-testid=bus-onboard] [data-testid=bus-student][data-num="${num}"]`, { timeout: 15_000 });
        const below = await page.evaluate(() => {
          const head = document.querySelector('[data-testid=terminal-info] .tinfo-head');
          const list = document.querySelector('[data-testid=terminal-info] [data-testid=bus-onboard]');
          return !!head && !!list && head.nextElementSibling === list;
        });
        expect(below, 'the on-bus list comes right after the name and actions');

        // Delete: gone from the list.
        await openInApp(page, '/school-bus');
        await page.click(`${row(num)} [data-testid=student-delete]`);
        await page.click('.ant-popconfirm .ant-btn-primary >> visible=true');
        await until(async () => (await page.locator(row(num)).count()) === 0, 'the student deleted');
      } finally {
        await bus.close();
      }
    },
  ],
];
