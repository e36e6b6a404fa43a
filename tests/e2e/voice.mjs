// Browser cases of issue 4 (voice dispatch), against the real binary with Debian Chromium and a fake microphone that
// plays real speech (fixtures/speech-8k.wav, resampled to the 48 kHz WAV Chromium wants). Listeners are checked with
// getStats() inbound-rtp and an AnalyserNode (the engine's level()), both read through window.tenfourVoice.
//
// Accounts: the dispatcher 10000001; the phone app signs in as 10000156 / 10000157 (app terminals; 10000150–155 are
// other suites'); the quiet demo fleet's Go radio 10000101 answers every individual call and replies once with speech
// from the shipped Ogg Opus fixtures (serve --demo-fleet-quiet).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, DISPATCHER, dispatcherConsole, expect, forwarder, menuItem, until } from './harness.mjs';
import { terminal } from './terminal.mjs';

export { DISPATCHER } from './harness.mjs';
export const PHONE_A = '10000156';
export const PHONE_B = '10000157';
const GO_RADIO = '10000101';
const OPERATIONS = 'Operations';

/** Figures measured by the cases, printed at the end of the run. */
export const measured = [];
export function measure(name, value, unit) {
  measured.push({ name, value, unit });
  console.log(`     measured: ${name} = ${typeof value === 'number' ? value.toFixed(1) : value} ${unit}`);
}

// ── audio fixture ──

let wavPath;
/** The 8 kHz speech fixture upsampled to 48 kHz mono 16-bit (what --use-file-for-fake-audio-capture reads). */
export function speechWav() {
  if (wavPath) return wavPath;
  const src = readFileSync(new URL('./fixtures/speech-8k.wav', import.meta.url));
  let off = 12;
  let rate = 8000;
  let data;
  while (off + 8 <= src.length) {
    const id = src.toString('ascii', off, off + 4);
    const size = src.readUInt32LE(off + 4);
    if (id === 'fmt ') rate = src.readUInt32LE(off + 12);
    if (id === 'data') data = src.subarray(off + 8, off + 8 + size);
    off += 8 + size + (size & 1);
  }
  expect(data, 'speech fixture has no data chunk');
  const inN = data.length / 2;
  const factor = 48000 / rate;
  const outN = Math.floor(inN * factor);
  const out = Buffer.alloc(44 + outN * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + outN * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(48000, 24);
  out.writeUInt32LE(96000, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(outN * 2, 40);
  for (let i = 0; i < outN; i++) {
    const x = i / factor;
    const a = Math.floor(x);
    const b = Math.min(a + 1, inN - 1);
    const f = x - a;
    const v = data.readInt16LE(a * 2) * (1 - f) + data.readInt16LE(b * 2) * f;
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v))), 44 + i * 2);
  }
  const dir = join(tmpdir(), 'tenfour-e2e');
  mkdirSync(dir, { recursive: true });
  wavPath = join(dir, 'speech-48k.wav');
  writeFileSync(wavPath, out);
  return wavPath;
}

let micBrowser;
/** A Chromium whose fake microphone says the speech fixture (shared by the voice and phone cases). */
export async function voiceBrowser() {
  if (micBrowser?.isConnected()) return micBrowser;
  micBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${speechWav()}`, '--autoplay-policy=no-user-gesture-required'],
    ignoreDefaultArgs: ['--mute-audio'],
  });
  return micBrowser;
}

const artifacts = new URL('./artifacts/', import.meta.url).pathname;

/** Runs fn with fresh contexts of the microphone browser; screenshots every page on failure; closes them. */
export async function withContexts(name, fn) {
  const browser = await voiceBrowser();
  const contexts = [];
  const open = async (opts = {}) => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 850 }, locale: 'en-US', ...opts });
    contexts.push(c);
    return c;
  };
  try {
    await fn(open);
  } catch (e) {
    mkdirSync(artifacts, { recursive: true });
    let i = 0;
    for (const c of contexts) for (const p of c.pages()) await p.screenshot({ path: `${artifacts}${name}-${i++}.png` }).catch(() => {});
    throw e;
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
  }
}

// ── pages ──

/** The dispatcher's console, signed in, socket online and voice connected. */
export async function consolePage(context) {
  const { page, base } = await dispatcherConsole(context);
  await page.waitForSelector('[data-testid=voice-rtc][data-state=connected]', { timeout: 20_000 });
  return { page, base };
}

export const MOBILE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-US' };

/** The phone app signed in as uid, on its main screen (its voice may still be connecting). */
export async function phoneSignIn(context, uid, base) {
  base ??= await forwarder();
  const page = await context.newPage();
  await page.goto(`${base}/app/`);
  await page.waitForSelector('[data-testid=phone-login]', { timeout: 20_000 });
  await page.fill('[data-testid=phone-account]', uid);
  await page.fill('[data-testid=phone-password]', '123456');
  await page.click('[data-testid=phone-submit]');
  await page.waitForSelector(`[data-testid=phone-main][data-uid="${uid}"]`, { timeout: 20_000 });
  return { page, base };
}

/** The phone app on a mobile viewport, signed in as uid, voice connected. */
export async function phonePage(context, uid, base) {
  const phone = await phoneSignIn(context, uid, base);
  await phone.page.waitForSelector('[data-testid=phone-ptt][data-rtc=connected]', { timeout: 20_000 });
  return phone;
}

/** The phone app of PHONE_B and a console, each in a context of withContexts' open, ready to talk. */
async function phoneBAndConsole(open) {
  const phone = (await phonePage(await open(MOBILE), PHONE_B)).page;
  const { page } = await consolePage(await open());
  return { phone, page };
}

/** Switches the phone's talk group with its group sheet. */
export async function phoneSwitchGroup(page, name) {
  await page.click('[data-testid=phone-group]');
  const option = `[data-testid=phone-group-option]:has-text("${name}")`;
  const gid = await page.getAttribute(option, 'data-gid');
  await page.click(option);
  await until(async () => (await page.textContent('[data-testid=phone-group]')).includes(name), `phone talk group ${name}`);
  return gid;
}

/**
 * Listens for ms on a page's voice engine: inbound-rtp packets and energy gained, the loudest AnalyserNode RMS
 * and getStats audioLevel seen, and who the engine said it was playing.
 */
export function listen(page, ms) {
  return page.evaluate(async (ms) => {
    const e = window.tenfourVoice;
    e.unlock();
    const s0 = await e.inboundStats();
    let level = 0;
    let audioLevel = 0;
    const playing = new Set();
    const end = performance.now() + ms;
    while (performance.now() < end) {
      level = Math.max(level, e.level());
      const s = await e.inboundStats();
      audioLevel = Math.max(audioLevel, s?.audioLevel ?? 0);
      const p = e.snapshot().playing;
      if (p?.msId) playing.add(p.msId);
      await new Promise((r) => setTimeout(r, 40));
    }
    const s1 = await e.inboundStats();
    return {
      packets: (s1?.packetsReceived ?? 0) - (s0?.packetsReceived ?? 0),
      energy: (s1?.totalAudioEnergy ?? 0) - (s0?.totalAudioEnergy ?? 0),
      level,
      audioLevel,
      playing: [...playing],
    };
  }, ms);
}

export function expectHeard(h, what) {
  expect(h.packets >= 40, `${what}: only ${h.packets} packets received`);
  expect(h.level > 0.005, `${what}: analyser RMS ${h.level.toFixed(4)} (silence)`);
  expect(h.energy > 0 || h.audioLevel > 0.001, `${what}: getStats audio energy ${h.energy}, level ${h.audioLevel}`);
}

/**
 * Holds the element pressed (pointer down … up) while fn runs. The pointer goes to where the element is once it stands
 * still (a call row coming or going moves the console's bottom-anchored voice dock), and presses there at once.
 */
export async function holding(page, selector, fn) {
  await page.hover(selector);
  await page.mouse.down();
  try {
    return await fn();
  } finally {
    await page.mouse.up();
  }
}

/**
 * Presses a PTT button (or a key, with press.down/up), waits until the floor is granted (nobody else talks: the demo
 * fleet is quiet), runs fn while talking, then releases.
 */
export async function talk(page, selector, fn, press) {
  const hold = press
    ? async (f) => {
        await press.down();
        try {
          return await f();
        } finally {
          await press.up();
        }
      }
    : (f) => holding(page, selector, f);
  return hold(async () => {
    const phase = await until(async () => {
      const p = await page.getAttribute(selector, 'data-phase');
      const err = await page.getAttribute(selector, 'data-error');
      return p === 'talking' ? 'talking' : p === 'idle' && err ? `refused ${err}` : null;
    }, `${selector} granted`, 10_000, 20);
    expect(phase === 'talking', `${selector}: floor ${phase}`);
    return fn();
  });
}

/** Starts the dock's all or broadcast call (kind), confirmed, and waits until the console lists it and phone joined. */
async function dockCall(page, phone, kind) {
  await page.click(`[data-testid=${kind}-call]`);
  await page.click('.ant-popconfirm .ant-btn-primary >> visible=true');
  await page.waitForSelector(`[data-testid=call-row][data-kind=${kind}]`, { timeout: 20_000 });
  await phone.waitForSelector(`[data-testid=phone-joined][data-kind=${kind}]`, { timeout: 20_000 });
}

/** Ends the dock's call of kind and waits until the console's list drops it. */
async function endDockCall(page, kind) {
  await page.click(`[data-testid=end-${kind}-call]`);
  await page.waitForSelector(`[data-testid=call-row][data-kind=${kind}]`, { state: 'detached', timeout: 20_000 });
}

async function searchTree(page, text) {
  await page.fill('[data-testid=tree-search] input', text);
}

async function rowMenu(page, selector, item) {
  await page.click(selector, { button: 'right' });
  await menuItem(page, item);
}

// ── cases ──

export const voiceCases = [
  [
    'voice: the dispatcher holds the PTT key (space) and a listener in the group hears non-silent audio; access time and server delay are shown',
    () =>
      withContexts('voice-ptt-key', async (open) => {
        const phone = (await phonePage(await open(MOBILE), PHONE_A)).page;
        await phoneSwitchGroup(phone, OPERATIONS); // the dispatcher's own talk group
        const { page } = await consolePage(await open());
        await page.waitForSelector('[data-testid=ptt-keys][data-bound="1"]', { state: 'attached', timeout: 20_000 });
        await page.click('[data-testid=voice-dock] .vdock-title'); // focus the page, unlock audio
        const heard = await talk(
          page,
          '[data-testid=ptt-button]',
          async () => {
            await until(async () => (await phone.getAttribute('[data-testid=phone-talker]', 'data-talker')) === DISPATCHER.uid, 'phone shows the dispatcher talking', 10_000);
            return listen(phone, 2500);
          },
          { down: () => page.keyboard.down('Space'), up: () => page.keyboard.up('Space') },
        );
        await until(async () => (await page.getAttribute('[data-testid=ptt-button]', 'data-phase')) === 'idle', 'floor released on key up');
        expectHeard(heard, 'phone listener');
        expect(heard.playing.includes(DISPATCHER.uid), `the phone played ${heard.playing.join(',')}, not the dispatcher`);
        measure('phone listener: packets in 2.5 s', heard.packets, 'packets');
        measure('phone listener: analyser RMS', heard.level, '');
        const access = Number(await page.getAttribute('[data-testid=ptt-access]', 'data-ms'));
        measure('console access time press → grant (engine)', access, 'ms');
        const stats = await page.waitForSelector('[data-testid=own-burst-stats]', { timeout: 20_000 });
        measure('server press → grant (floor.stats)', Number(await stats.getAttribute('data-access-us')) / 1000, 'ms');
        measure('server grant → first forwarded packet (floor.stats)', Number(await stats.getAttribute('data-first-us')) / 1000, 'ms');
        measure('server-added delay p99 (floor.stats)', Number(await stats.getAttribute('data-delay-us')) / 1000, 'ms');
        expect(/delay p99/.test(await stats.textContent()), 'burst stats text');
        // The group's call row shows the same figures while the call stays open.
        await page.waitForSelector('[data-testid=call-row][data-kind=group] [data-testid=burst-stats]', { timeout: 5_000 });
      }),
    { serial: true }, // a time budget in ms: run alone (harness.mjs partOf)
  ],
  [
    'voice: a Go terminal of the demo fleet answers an individual call, hears the dispatcher and replies — the console receives its speech, and the burst is in /voice-list and plays',
    () =>
      withContexts('voice-go-terminal', async (open) => {
        const { page, base } = await consolePage(await open());
        const radio = GO_RADIO;
        await searchTree(page, radio);
        await page.waitForSelector(`[data-testid=terminal-row][data-cid="${radio}"][data-online="1"]`, { timeout: 20_000 });
        const r = await page.evaluate((msId) => window.tenfourVoice.invite('single', { msId }).then((x) => x, (e) => ({ error: e.code })), radio);
        expect(!r.error, `invite ${radio}: ${r.error}`);
        const callId = r.callId;
        // The radio answers within 2–8 s.
        await until(async () => (await page.evaluate((cid) => window.tenfourVoice.snapshot().calls[cid]?.state, callId)) === 'connected', `${radio} answers`, 15_000);
        const row = `[data-testid=call-row][data-call-id="${callId}"]`;
        await page.waitForSelector(`${row}[data-state=connected]`);
        // The radio replies with recorded speech (1–4 s after the call connected).
        await until(async () => (await page.getAttribute(row, 'data-talker')) === radio, `${radio} replies in the call`, 20_000, 50);
        const heard = await listen(page, 1500);
        expectHeard(heard, `console hearing ${radio}`);
        expect(heard.playing.includes(radio), `the console played ${heard.playing.join(',')}, not ${radio}`);
        measure(`console hearing Go radio ${radio}: packets in 1.5 s`, heard.packets, 'packets');
        measure(`console hearing Go radio ${radio}: analyser RMS`, heard.level, '');
        await until(async () => (await page.getAttribute(row, 'data-talker')) === '', `${radio} finishes its reply`, 30_000);
        // The dispatcher answers in the call (the PTT target follows the call it started): the radio is its listener.
        await talk(page, '[data-testid=ptt-button]', () => new Promise((r) => setTimeout(r, 1500)));
        const burst = await page.waitForSelector(`${row} [data-testid=burst-stats][data-ms-id="${DISPATCHER.uid}"]`, { timeout: 20_000 });
        expect(Number(await burst.getAttribute('data-packets')) > 20, `dispatcher burst: ${await burst.getAttribute('data-packets')} packets`);
        await page.click(`${row} [data-testid=hang-up]`);
        await page.waitForSelector(row, { state: 'detached', timeout: 20_000 });

        await page.goto(`${base}/voice-list`);
        await page.waitForSelector('[data-testid=voice-list-page]');
        const rec = `[data-testid=record-row][data-callid="${callId}"][data-ms-id="${radio}"]`;
        await until(async () => {
          if (await page.$(rec)) return true;
          await page.click('[data-testid=records-search]');
          return false;
        }, `the radio's burst is listed in /voice-list`, 20_000, 1000);
        expect(await page.$(`[data-testid=record-row][data-callid="${callId}"][data-ms-id="${DISPATCHER.uid}"]`), 'the dispatcher burst is listed too');
        const duration = await page.textContent(`${rec} [data-testid=record-duration]`);
        expect(/^\d+:\d\d$/.test(duration), `duration ${duration}`);
        const href = await page.getAttribute(`${rec} [data-testid=record-download]`, 'href');
        expect(href.includes('download=1'), `download link ${href}`);
        expect(!/token=/.test(href), `the download link carries the session token: ${href}`);
        const dl = await page.evaluate(async (u) => {
          const r = await fetch(u);
          return { status: r.status, type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
        }, href);
        expect(dl.status === 200 && /ogg/.test(dl.type) && dl.size > 1000, `download ${JSON.stringify(dl)}`);
        await page.click(`${rec} [data-testid=record-play]`);
        const played = await until(
          () => page.evaluate(() => {
            const a = document.querySelector('[data-testid=record-audio]');
            return a && !a.error && a.currentTime > 0.3 ? { t: a.currentTime, d: a.duration } : null;
          }),
          'the recording plays inline',
          15_000,
        );
        measure('inline playback reached', played.t, 's');
      }),
  ],
  [
    'voice: individual call from the terminal menu — ringing, the phone app answers, both talk, the dispatcher hangs up',
    () =>
      withContexts('voice-single', async (open) => {
        const { phone, page } = await phoneBAndConsole(open);
        await searchTree(page, PHONE_B);
        await page.waitForSelector(`[data-testid=terminal-row][data-cid="${PHONE_B}"][data-online="1"]`, { timeout: 15_000 });
        await rowMenu(page, `[data-testid=terminal-row][data-cid="${PHONE_B}"]`, 'Individual call');
        const row = await page.waitForSelector('[data-testid=call-row][data-kind=single]', { timeout: 20_000 });
        const callId = await row.getAttribute('data-call-id');
        const sel = `[data-testid=call-row][data-call-id="${callId}"]`;
        await until(async () => (await page.getAttribute(sel, 'data-state')) === 'ringing', 'the console shows ringing');
        await phone.waitForSelector(`[data-testid=phone-incoming][data-call-id="${callId}"]`);
        await phone.click('[data-testid=phone-answer]');
        await page.waitForSelector(`${sel}[data-state=connected]`, { timeout: 20_000 });
        await phone.waitForSelector(`[data-testid=phone-call][data-state=connected]`, { timeout: 20_000 });
        expect((await page.textContent('[data-testid=ptt-target]')).includes('App'), 'the PTT target is the call');

        const toPhone = await talk(page, '[data-testid=ptt-button]', () => listen(phone, 2000));
        expectHeard(toPhone, 'phone hearing the dispatcher in the call');
        const toConsole = await talk(phone, '[data-testid=phone-ptt]', async () => {
          await until(async () => (await page.getAttribute(sel, 'data-talker')) === PHONE_B, 'the console sees the phone talking in the call');
          return listen(page, 2000);
        });
        expectHeard(toConsole, 'console hearing the phone in the call');

        await page.click(`${sel} [data-testid=hang-up]`);
        await page.waitForSelector(sel, { state: 'detached', timeout: 20_000 });
        await phone.waitForSelector('[data-testid=phone-call]', { state: 'detached', timeout: 20_000 });
      }),
  ],
  [
    'voice: all call and broadcast from the dock (spec §6 permissions); broadcast listeners cannot take the floor',
    () =>
      withContexts('voice-all-broadcast', async (open) => {
        const { phone, page } = await phoneBAndConsole(open);

        await dockCall(page, phone, 'all');
        expect((await page.textContent('[data-testid=ptt-target]')).includes('All call'), 'PTT target is the all call');
        await endDockCall(page, 'all');

        await dockCall(page, phone, 'broadcast');
        const refused = await holding(phone, '[data-testid=phone-ptt]', () =>
          until(async () => phone.getAttribute('[data-testid=phone-ptt]', 'data-error'), 'the phone is refused in the broadcast', 10_000, 20),
        );
        expect(refused === '606', `broadcast listener talking: ${refused}`);
        const heard = await talk(page, '[data-testid=ptt-button]', () => listen(phone, 1500));
        expectHeard(heard, 'phone hearing the broadcast');
        await endDockCall(page, 'broadcast');
      }),
  ],
  [
    'voice: temporary-group call of a multi-selection, group monitoring from the group menu',
    () =>
      withContexts('voice-temp', async (open) => {
        const { phone, page } = await phoneBAndConsole(open);
        await searchTree(page, PHONE_B);
        const box = await page.waitForSelector(`.ant-tree-treenode:has([data-testid=terminal-row][data-cid="${PHONE_B}"]) .ant-tree-checkbox`);
        await box.click();
        await page.click('[data-testid=temp-call]');
        const temp = await page.waitForSelector('[data-testid=call-row][data-kind=temp]', { timeout: 20_000 });
        await phone.waitForSelector('[data-testid=phone-joined][data-kind=temp]', { timeout: 20_000 });
        const tempId = await temp.getAttribute('data-call-id');
        await page.click(`[data-testid=call-row][data-call-id="${tempId}"] [data-testid=hang-up]`);
        await page.waitForSelector(`[data-testid=call-row][data-call-id="${tempId}"]`, { state: 'detached', timeout: 20_000 });

        await searchTree(page, '');
        const group = `[data-testid=group-row]:has(.grow-name:text-is("${OPERATIONS}"))`;
        const gid = await (await page.waitForSelector(group)).getAttribute('data-gid');
        await rowMenu(page, group, 'Monitor group');
        await page.waitForSelector(`[data-testid=monitor-group][data-gid="${gid}"]`, { timeout: 20_000 });
        await rowMenu(page, group, 'Stop monitoring group');
        await page.waitForSelector(`[data-testid=monitor-group][data-gid="${gid}"]`, { state: 'detached', timeout: 20_000 });
      }),
  ],
  [
    'voice: a terminal calls the dispatcher (ring, answer; a canceled call is a missed call), listening to a terminal\'s microphone, the PTT key in a child window',
    () =>
      withContexts('voice-incoming', async (open) => {
        const ctx = await open();
        const { page, base } = await consolePage(ctx);
        // A bare terminal (no app) that acknowledges its call once the dispatcher answers.
        const caller = await terminal(PHONE_A, {
          onFrame: (f, t) => {
            if (f.type === 'call.state' && f.data.state === 'answered' && f.data.initiator?.msId === PHONE_A) void t.request('call.ack', { callId: f.data.callId });
          },
        });

        // A call the dispatcher answers.
        const inv = await caller.request('call.invite', { kind: 'single', msId: DISPATCHER.uid });
        expect(inv.code === '0', `invite ${JSON.stringify(inv)}`);
        const callId = inv.data.callId;
        await page.waitForSelector(`[data-testid=incoming-call-row][data-call-id="${callId}"]`, { timeout: 20_000 });
        await page.click(`[data-testid=incoming-call-row][data-call-id="${callId}"] [data-testid=answer-call]`);
        await page.waitForSelector(`[data-testid=call-row][data-call-id="${callId}"][data-state=connected]`, { timeout: 20_000 });
        await page.click(`[data-testid=call-row][data-call-id="${callId}"] [data-testid=hang-up]`);
        await page.waitForSelector(`[data-testid=call-row][data-call-id="${callId}"]`, { state: 'detached', timeout: 20_000 });

        // A call canceled while it rings is a missed call.
        const inv2 = await caller.request('call.invite', { kind: 'single', msId: DISPATCHER.uid });
        await page.waitForSelector(`[data-testid=incoming-call-row][data-call-id="${inv2.data.callId}"]`, { timeout: 20_000 });
        const cancel = await caller.request('call.cancel', { callId: inv2.data.callId });
        expect(cancel.code === '0', `cancel ${JSON.stringify(cancel)}`);
        await page.waitForSelector('[data-testid=incoming-call-row]', { state: 'hidden', timeout: 20_000 });
        await page.waitForSelector('[data-testid=voice-dock] .ant-badge-count', { timeout: 20_000 }); // the missed-calls badge
        await page.click('[data-testid=missed-calls]');
        await page.waitForSelector(`[data-testid=missed-row][data-ms-id="${PHONE_A}"]`, { timeout: 20_000 });
        await page.keyboard.press('Escape');
        await caller.close();

        // Listening to a terminal: the phone app sends its microphone without any sign to its user.
        const phone = (await phonePage(await open(MOBILE), PHONE_B, base)).page;
        await page.fill('[data-testid=tree-search] input', PHONE_B);
        const row = `[data-testid=terminal-row][data-cid="${PHONE_B}"]`;
        await page.waitForSelector(`${row}[data-online="1"]`, { timeout: 15_000 });
        await rowMenu(page, row, 'Listen to terminal');
        await page.waitForSelector(`[data-testid=monitor-terminal][data-ms-id="${PHONE_B}"]`, { timeout: 20_000 });
        const heard = await listen(page, 2000);
        expectHeard(heard, "console listening to the phone's microphone");
        expect(heard.playing.includes(PHONE_B), `the console played ${heard.playing.join(',')}`);
        expect((await phone.getAttribute('[data-testid=phone-ptt]', 'data-phase')) === 'idle', 'the phone shows nothing');
        await page.click(`[data-testid=monitor-terminal][data-ms-id="${PHONE_B}"] .ant-tag-close-icon`);
        await page.waitForSelector('[data-testid=monitor-terminal]', { state: 'detached', timeout: 20_000 });

        // The PTT key in a child window drives the console's one voice connection.
        const [popup] = await Promise.all([ctx.waitForEvent('page'), page.evaluate(() => window.open('/log-child', 'tenfour-log-child', 'popup,width=900,height=600'))]);
        await popup.waitForSelector('[data-testid=child-frame]');
        await popup.waitForSelector('[data-testid=log-page][data-socket=online]', { timeout: 20_000 });
        await popup.waitForSelector('[data-testid=ptt-keys][data-bound="1"]', { state: 'attached', timeout: 20_000 }); // loaded lazily
        await popup.click('[data-testid=child-frame]', { position: { x: 5, y: 5 } });
        const phase = await talk(
          page,
          '[data-testid=ptt-button]',
          () => page.getAttribute('[data-testid=ptt-button]', 'data-phase'),
          { down: () => popup.keyboard.down('Space'), up: () => popup.keyboard.up('Space') },
        );
        expect(phase === 'talking', `main window floor ${phase}`);
        await until(async () => (await page.getAttribute('[data-testid=ptt-button]', 'data-phase')) === 'idle', 'released from the child window');
      }),
  ],
];
