// The voice dock's dial pad (issue 34): a number keyed in calls that account individually, as the terminal menu
// does (a SIP phone's id calls the phone: internal/sip's tests; here a terminal of the suite answers); any other
// phone number goes through the customer's SIP trunk (internal/sip's TestConsoleDialsNumber) — the demo customer
// has none, so the console says so.
import { dispatcherConsole, expect, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

const CALLEE = '10000169'; // an app the quiet fleet never runs (terminal.mjs); oplog.mjs's too, one case at a time
const OTHER_CUSTOMERS = '20000001'; // the second demo customer's dispatcher

const NUMBER = 'input[data-testid=dialpad-number]';

/** Keys a number in on the pad. */
async function key(page, digits) {
  for (const d of digits) await page.click(`[data-testid="dialpad-key-${d}"]`);
}

export const dialpadCases = [
  [
    'dial pad: a number that no route takes cannot be called; an 8-digit id rings that terminal, it answers, the call connects and hangs up; an id of another customer is refused with an error; a phone number without a trunk is refused with its sentence',
    async ({ context }) => {
      const term = await terminal(CALLEE, {
        onFrame: (f, t) => {
          if (f.type === 'call.invite') void t.request('call.status', { callId: f.data.callId, status: 200 });
        },
      });
      try {
        const { page } = await dispatcherConsole(context);
        const call = '[data-testid=dialpad-call]';
        await page.waitForSelector('[data-testid=dialpad]', { timeout: 20_000 });
        await page.fill(NUMBER, '1000015');
        await key(page, '*');
        await page.waitForSelector('[data-testid=dialpad-hint]');
        expect(await page.isDisabled(call), 'a number with * is not called');
        await page.fill(NUMBER, CALLEE.slice(0, 7));
        expect(!(await page.isDisabled(call)), '7 digits are a phone number (the trunk route)');
        await key(page, CALLEE.slice(7));
        expect(!(await page.isDisabled(call)), 'the call button is enabled for an 8-digit id');
        await page.click(call);
        await term.waitFor('call.invite', (f) => f.data.from?.msId === '10000001', `${CALLEE} is offered the call`);
        const row = await page.waitForSelector('[data-testid=call-row][data-kind=single][data-state=connected]', { timeout: 20_000 });
        const callId = await row.getAttribute('data-call-id');
        expect((await page.inputValue(NUMBER)) === '', 'the pad is cleared once the call is placed');
        await page.click(`[data-testid=call-row][data-call-id="${callId}"] [data-testid=hang-up]`);
        await page.waitForSelector(`[data-testid=call-row][data-call-id="${callId}"]`, { state: 'detached', timeout: 20_000 });

        await page.fill(NUMBER, OTHER_CUSTOMERS);
        await page.click(call);
        await page.waitForSelector('.ant-message-error', { timeout: 15_000 }); // the refusal's text (useErrorText)

        await page.fill(NUMBER, ' +49 30 1234-567');
        expect((await page.inputValue(NUMBER)) === '+49301234567', 'a typed number keeps its leading + and its digits');
        await page.click(call);
        await page.waitForSelector('.ant-message-error:has-text("No SIP trunk is registered")', { timeout: 15_000 }); // 480
      } finally {
        await term.close();
      }
    },
  ],
  [
    'dial pad: a phone call is full duplex — the callee answers as a SIP phone does ("duplex"), the call row says both sides talk, the microphone goes out without PTT, Mute stops it and Unmute resumes it',
    async ({ context }) => {
      // The terminal answers as internal/sip's session of a phone with talk keys does (docs/adr/0044).
      const term = await terminal(CALLEE, {
        onFrame: (f, t) => {
          if (f.type === 'call.invite') void t.request('call.status', { callId: f.data.callId, status: 200, duplex: true });
        },
      });
      try {
        const { page } = await dispatcherConsole(context);
        await page.waitForSelector('[data-testid=voice-rtc][data-state=connected]', { timeout: 20_000 });
        await page.fill(NUMBER, CALLEE);
        await page.click('[data-testid=dialpad-call]');
        const row = await page.waitForSelector('[data-testid=call-row][data-kind=single][data-state=connected]', { timeout: 20_000 });
        const callId = await row.getAttribute('data-call-id');
        const inRow = (sel) => `[data-testid=call-row][data-call-id="${callId}"] ${sel}`;
        await page.waitForSelector(inRow('[data-testid=open-line]'));
        /** Audio packets the console sends over a second, no key pressed. */
        const sentInASecond = () =>
          page.evaluate(async () => {
            const sent = async () => (await window.tenfourVoice.link.outboundStats())?.packetsSent ?? 0;
            const before = await sent();
            await new Promise((r) => setTimeout(r, 1000));
            return (await sent()) - before;
          });
        // the sender takes the microphone as the call connects (replaceTrack): the second after that
        await until(async () => (await sentInASecond()) >= 30, 'the console sends its microphone on the open line', 10_000, 0);
        await page.click(inRow('[data-testid=line-mute]'));
        await page.waitForSelector(inRow('[data-testid=line-mute][data-muted="1"]'));
        await until(async () => (await sentInASecond()) <= 2, 'nothing sent while muted', 10_000, 0);
        await page.click(inRow('[data-testid=line-mute]'));
        await until(async () => (await sentInASecond()) >= 30, 'the microphone back after Unmute', 10_000, 0);
        await page.click(inRow('[data-testid=hang-up]'));
        await page.waitForSelector(`[data-testid=call-row][data-call-id="${callId}"]`, { state: 'detached', timeout: 20_000 });
        expect((await sentInASecond()) <= 2, 'the microphone is off the wire once the call ended');
      } finally {
        await term.close();
      }
    },
  ],
];
