// Browser cases for messages, tones and the media cloud (issue 7 "Done when"): the console against the real binary,
// terminals driven over the socket per docs/terminal-protocol.md (terminal.mjs). Demo terminals 10000152–10000157
// (iOS apps in Emergency and Operations; the quiet demo fleet never runs them). Imported by run.mjs; also runs alone:
// TENFOUR_URL=http://127.0.0.1:18080 node tests/e2e/message.mjs
import { pathToFileURL } from 'node:url';
import { DISPATCHER, dispatcherConsole, expect, run, until } from './harness.mjs';
import { terminal } from './terminal.mjs';
import { png, wav } from './files.mjs';

const T_DELIVER = '10000152';
const T_REPLY = '10000153';
const T_PHOTO = '10000154';
const T_TONE = '10000155';
const T_OFFLINE = '10000156';
const T_ATTACH = '10000157';

const tag = () => `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1296).toString(36)}`;

// ---- the console ----------------------------------------------------------------------------------------------
const signIn = (context) => dispatcherConsole(context);

/** Opens a screen with a full load and waits until its socket is online. */
async function open(page, base, path, testid) {
  await page.goto(`${base}${path}`);
  await page.waitForSelector(`[data-testid=${testid}][data-socket=online]`, { timeout: 30_000 });
}

/** Connects terminal msId and opens the console's chat with it. */
async function chatWith(context, msId) {
  const term = await terminal(msId);
  const { page, base } = await signIn(context);
  await open(page, base, `/message?msId=${msId}`, 'message-page');
  await page.waitForSelector(`[data-testid=msg-chat-title][data-key="t:${msId}"]`);
  return { term, page, base };
}

/** Picks options in an antd Select by typing each value and pressing Enter. */
async function choose(page, selectTestid, values) {
  for (const v of values) {
    await page.click(`[data-testid=${selectTestid}]`);
    await page.keyboard.type(v);
    await page.waitForSelector(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option:has-text("${v}")`, { timeout: 10_000 });
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Escape');
}

const badgeCount = async (page) => Number((await page.getAttribute('[data-testid=message-tab-badge]', 'data-count')) ?? 'NaN');

/** Opens the add-tone dialog once the tone drawer has finished sliding in (a click during the slide can miss). */
async function openToneForm(page) {
  await until(
    () =>
      page.evaluate(() => {
        const w = document.querySelector('[data-testid=tone-add]')?.closest('.ant-drawer-content-wrapper');
        return !!w && !/motion/.test(w.className) && w.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
      }),
    'the tone drawer is in place',
  );
  await page.click('[data-testid=tone-add]');
  await page.waitForSelector('[data-testid=tone-form]');
}

export const messageCases = [
  [
    'messages: the console sends a message to a terminal and sees it delivered; empty and illegal text refused with the server codes',
    async ({ context }) => {
      const { term, page } = await chatWith(context, T_DELIVER);

      // Client-side checks with the server's codes: empty (11), illegal characters (10).
      await page.click('[data-testid=msg-send]');
      await page.waitForSelector('[data-testid=msg-error][data-code="11"]:has-text("Empty message")');
      await page.fill('[data-testid=msg-input]', 'bidi \u202e override');
      await page.click('[data-testid=msg-send]');
      await page.waitForSelector('[data-testid=msg-error][data-code="10"]:has-text("Invalid characters")');

      const text = `E2E to ${T_DELIVER} ${tag()}\nsecond line`;
      await page.fill('[data-testid=msg-input]', text);
      await page.click('[data-testid=msg-send]');
      const got = await term.waitFor('sms.deliver', (f) => f.data.content === text, 'the terminal received sms.deliver', 15_000);
      expect(!got.data.gid && got.data.from === DISPATCHER.uid, `deliver frame ${JSON.stringify(got.data)}`);
      await page.waitForSelector(`[data-testid=msg-row][data-id="${got.data.id}"][data-state=delivered]`, { timeout: 15_000 });
      expect((await page.textContent(`[data-testid=msg-row][data-id="${got.data.id}"]`)).includes('second line'), 'line feeds kept');

      await term.close();
    },
  ],
  [
    'messages: a message to an offline terminal is kept as pending ("not online") and delivered when it comes back',
    async ({ context }) => {
      const { page, base } = await signIn(context);
      await open(page, base, '/message', 'message-page');
      await page.click('[data-testid=msg-open]');
      await page.keyboard.type(T_OFFLINE);
      await page.waitForSelector(`.ant-select-item-option:has-text("${T_OFFLINE}")`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`[data-testid=msg-chat-title][data-key="t:${T_OFFLINE}"]`);
      const later = `E2E later ${tag()}`;
      await page.fill('[data-testid=msg-input]', later);
      await page.click('[data-testid=msg-send]');
      const row = `[data-testid=msg-row][data-direction=out]:has-text("${later}")`;
      await page.waitForSelector(`${row} [data-testid=msg-state][data-state=pending][data-code="4"]`, { timeout: 15_000 });
      expect(/Not online/.test(await page.textContent(`${row} [data-testid=msg-state]`)), 'pending shows "Not online"');
      const off = await terminal(T_OFFLINE);
      await off.waitFor('sms.deliver', (f) => f.data.content === later, 'the offline terminal got the message at login', 15_000);
      await page.waitForSelector(`${row}[data-state=delivered]`, { timeout: 15_000 });
      await off.close();
    },
  ],
  [
    "messages: a terminal's reply raises the unread badge; opening the conversation reads it",
    async ({ context }) => {
      const term = await terminal(T_REPLY);
      const { page } = await signIn(context);
      await page.waitForSelector('[data-testid=message-tab-badge]');
      await until(async () => Number.isFinite(await badgeCount(page)), 'badge count readable');
      const before = await badgeCount(page);
      const text = `E2E reply ${tag()}`;
      const sent = await term.request('sms.send', { content: text });
      expect(sent.code === '0', `terminal sms.send answered ${JSON.stringify(sent)}`);
      const risen = before + 1;
      await until(async () => (await badgeCount(page)) === risen, `badge rises from ${before} to ${risen}`, 15_000);

      await page.click('[data-testid=main-menu] [data-testid=message-tab-badge]');
      await page.waitForSelector('[data-testid=message-page]');
      const item = `[data-testid=conv-item][data-key="t:${T_REPLY}"]`;
      await page.waitForSelector(`${item}:not([data-unread="0"])`, { timeout: 15_000 });
      await page.click(item);
      await page.waitForSelector(`[data-testid=msg-row][data-direction=in]:has-text("${text}")`);
      await page.waitForSelector(`${item}[data-unread="0"]`, { timeout: 15_000 });
      await until(async () => (await badgeCount(page)) === before, `badge back down from ${risen} to ${before} after reading`, 15_000);
      await term.close();
    },
  ],
  [
    'media cloud: a terminal uploads a photo and it appears in /medias, with preview and download',
    async ({ context }) => {
      const { page, base } = await signIn(context);
      await open(page, base, '/medias', 'medias-page');
      const term = await terminal(T_PHOTO);
      const up = await term.upload(png(80, 60, [30, 140, 220]), `IMG_${tag()}.png`, 'image');
      expect(up.code === '0', `upload answered ${JSON.stringify(up)}`);
      const reg = await term.request('media.uploaded', { fileId: up.result.id, kind: 'image', lat: 41.0082, lng: 28.9784 });
      expect(reg.code === '0', `media.uploaded answered ${JSON.stringify(reg)}`);
      const id = String(reg.data.id ?? reg.data.item?.id);
      const card = `[data-testid=media-item][data-id="${id}"]`;
      await page.waitForSelector(`${card}[data-kind=image][data-ms="${T_PHOTO}"]`, { timeout: 15_000 });
      await page.click(card);
      await page.waitForSelector('[data-testid=media-preview-image]');
      await until(async () => page.evaluate(() => document.querySelector('[data-testid=media-preview-image]')?.naturalWidth === 80), 'the preview image loads with the session cookie');
      const href = await page.getAttribute('[data-testid=media-download]', 'href');
      expect(href.includes(up.result.id) && href.includes('download=1'), `download link ${href}`);
      // After a reload it comes from mediaLib/list, also filtered by the terminal.
      await page.keyboard.press('Escape');
      await open(page, base, '/medias', 'medias-page');
      await choose(page, 'medias-terminals', [T_PHOTO]);
      await page.click('[data-testid=medias-search]');
      await page.waitForSelector(card, { timeout: 15_000 });
      const others = await page.$$eval('[data-testid=media-item]', (els, ms) => els.filter((e) => e.dataset.ms !== ms).length, T_PHOTO);
      expect(others === 0, `${others} items of other terminals with the terminal filter`);
      await term.close();
    },
  ],
  [
    'tones: a tone is created with a visible upload progress bar, a taken name is refused, and the tone is sent to a terminal that plays it',
    async ({ context }) => {
      const term = await terminal(T_TONE);
      const { page, base } = await signIn(context);
      await open(page, base, '/message', 'message-page');
      await page.click('[data-testid=msg-tones]');
      await page.waitForSelector('[data-testid=tone-drawer]');
      await openToneForm(page);
      const name = `E2E tone ${tag()}`;
      await page.fill('[data-testid=tone-name]', name);
      // Record every progress value the bar shows; a throttled upload makes the intermediate ones visible.
      await page.evaluate(() => {
        window.__progress = [];
        new MutationObserver(() => {
          const el = document.querySelector('[data-testid=tone-sound-item]');
          if (el) window.__progress.push(`${el.dataset.status}:${el.dataset.percent}`);
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent', 'data-status'] });
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 600_000 });
      await page.setInputFiles('[data-testid=tone-sound-input]', { name: `${name}.wav`, mimeType: 'audio/wav', buffer: wav(1_500_000) });
      await page.waitForSelector('[data-testid=tone-sound-item][data-status=uploading] [data-testid=tone-sound-progress]', { timeout: 10_000 });
      await page.waitForSelector('[data-testid=tone-sound-item][data-status=done][data-percent="100"]', { timeout: 30_000 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const seen = await page.evaluate(() => window.__progress);
      const middle = seen.filter((s) => /^uploading:(\d+)$/.test(s) && +s.split(':')[1] > 0 && +s.split(':')[1] < 100);
      expect(middle.length > 0, `no intermediate progress shown: ${seen.join(' ')}`);
      await page.setInputFiles('[data-testid=tone-icon-input]', { name: 'icon.png', mimeType: 'image/png', buffer: png(32, 32, [250, 200, 0]) });
      await page.waitForSelector('[data-testid=tone-icon-item][data-status=done]', { timeout: 15_000 });
      await page.click('[data-testid=tone-save]');
      const row = `[data-testid=tone-row][data-name="${name}"]`;
      await page.waitForSelector(row, { timeout: 15_000 });

      // The same name again: "name exists" (74) on the name field.
      await openToneForm(page);
      await page.fill('[data-testid=tone-name]', name);
      await page.setInputFiles('[data-testid=tone-sound-input]', { name: 'other.wav', mimeType: 'audio/wav', buffer: wav(20_000, 440) });
      await page.setInputFiles('[data-testid=tone-icon-input]', { name: 'icon2.png', mimeType: 'image/png', buffer: png(16, 16, [0, 200, 100]) });
      await page.waitForSelector('[data-testid=tone-sound-item][data-status=done]', { timeout: 15_000 });
      await page.waitForSelector('[data-testid=tone-icon-item][data-status=done]', { timeout: 15_000 });
      await page.click('[data-testid=tone-save]');
      await page.waitForSelector('[data-testid=tone-name][data-error="74"]', { timeout: 15_000 });
      expect(/Name exists/.test(await page.textContent('[data-testid=tone-form]')), 'the "name exists" message');
      await page.click('.ant-modal-wrap:has([data-testid=tone-form]) .ant-modal-close');

      // Send it to the terminal: it receives tone.play and acknowledges.
      const toneId = await page.getAttribute(row, 'data-id');
      await page.click(`${row} [data-testid=tone-send]`);
      await page.waitForSelector('[data-testid=tone-send-terminals]');
      await choose(page, 'tone-send-terminals', [T_TONE]);
      await page.click('[data-testid=tone-send-ok]');
      await page.waitForSelector('[data-testid=tone-send-result][data-delivered="1"][data-recipients="1"]', { timeout: 15_000 });
      const play = await term.waitFor('tone.play', (f) => String(f.data.toneId) === toneId, 'the terminal got tone.play', 10_000);
      expect(play.data.name === name && /\/filews\/files\//.test(play.data.fileUrl), `tone.play ${JSON.stringify(play.data)}`);
      await term.close();
    },
  ],
  [
    'messages: photos both ways through the file service (upload progress bar in the composer) and the message sender dialog to several targets',
    async ({ context }) => {
      const { term, page } = await chatWith(context, T_ATTACH);

      // Console → terminal: a photo with a caption.
      await page.setInputFiles('[data-testid=msg-file-input]', { name: 'site.png', mimeType: 'image/png', buffer: png(90, 70, [20, 180, 90]) });
      await page.waitForSelector('[data-testid=msg-upload-item] [data-testid=msg-upload-progress]');
      await page.waitForSelector('[data-testid=msg-upload-item][data-status=done][data-percent="100"]', { timeout: 15_000 });
      const caption = `E2E photo ${tag()}`;
      await page.fill('[data-testid=msg-input]', caption);
      await page.click('[data-testid=msg-send]');
      const got = await term.waitFor('sms.deliver', (f) => f.data.content === caption, 'the terminal received the photo', 15_000);
      expect(got.data.type === 'image' && got.data.file?.kind === 'image' && got.data.file.name === 'site.png', `deliver ${JSON.stringify(got.data)}`);
      const status = await term.fetchStatus(got.data.file.url);
      expect(status === 200, `the terminal fetched the attachment: HTTP ${status}`);
      const out = `[data-testid=msg-row][data-id="${got.data.id}"]`;
      await page.waitForSelector(`${out}[data-state=delivered] [data-testid=msg-attachment][data-kind=image]`, { timeout: 15_000 });
      expect(!(await page.$('[data-testid=msg-upload-item]')), 'the composer is cleared after sending');

      // Terminal → console: a photo without text, shown in the conversation.
      const up = await term.upload(png(40, 30, [200, 30, 200]), 'reply.png', 'image');
      expect(up.code === '0', `terminal upload ${JSON.stringify(up)}`);
      const sent = await term.request('sms.send', { content: '', fileId: up.result.id });
      expect(sent.code === '0', `terminal sms.send with a file ${JSON.stringify(sent)}`);
      const inRow = `[data-testid=msg-row][data-id="${sent.data.id}"][data-direction=in]`;
      await page.waitForSelector(`${inRow} [data-testid=msg-attachment][data-kind=image] img`, { timeout: 15_000 });
      await until(async () => page.evaluate((sel) => document.querySelector(sel)?.naturalWidth === 40, `${inRow} img`), 'the photo loads in the conversation');

      // The message sender: the rules of spec §5, then one message to a group and two terminals.
      await page.click('[data-testid=msg-new]');
      await page.waitForSelector('[data-testid=sender-send]');
      await page.fill('[data-testid=sender-content]', `E2E to several ${tag()}`);
      await page.click('[data-testid=sender-send]');
      await page.waitForSelector('.ant-form-item-explain-error:has-text("Choose a group or a terminal")');
      await choose(page, 'sender-groups', ['Others']);
      await page.click('[data-testid=sender-send]');
      await page.waitForSelector('.ant-form-item-explain-error:has-text("choose at least one terminal")');
      await choose(page, 'sender-groups', ['Cameras']);
      await choose(page, 'sender-terminals', [T_ATTACH, T_OFFLINE]);
      await page.click('[data-testid=sender-send]');
      await page.waitForSelector(`[data-testid=sender-result][data-key="t:${T_ATTACH}"][data-state=delivered]`, { timeout: 20_000 });
      await page.waitForSelector(`[data-testid=sender-result][data-key="t:${T_OFFLINE}"][data-state=pending][data-code="4"]`, { timeout: 20_000 });
      const group = await page.waitForSelector('[data-testid=sender-result][data-key^="g:"]:not([data-state=sending])', { timeout: 20_000 });
      const gs = await group.getAttribute('data-state');
      expect(['delivered', 'partial', 'pending'].includes(gs), `group result ${gs}`);
      await term.close();
    },
  ],
  [
    'message data: the report lists a terminal\'s messages and exports them to .xlsx',
    async ({ context }) => {
      const term = await terminal(T_REPLY);
      const text = `E2E report ${tag()}`;
      const sent = await term.request('sms.send', { content: text });
      expect(sent.code === '0', `terminal sms.send ${JSON.stringify(sent)}`);
      await term.close();
      const { page, base } = await signIn(context);
      await page.goto(`${base}/message-data`);
      await page.waitForSelector('[data-testid=message-data-page]');
      await choose(page, 'msgdata-terminals', [T_REPLY]);
      await page.click('[data-testid=msgdata-search]');
      await page.waitForSelector(`[data-testid=msgdata-row]:has-text("${text}")`, { timeout: 15_000 });
      expect((await page.textContent('[data-testid=msgdata-summary]')).includes(T_REPLY), 'summary line of the terminal');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.click('[data-testid=msgdata-export]')]);
      expect(/^message-data-\d{8}-\d{4}\.xlsx$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
      const path = await download.path();
      const { readFileSync } = await import('node:fs');
      const head = readFileSync(path).subarray(0, 2).toString('latin1');
      expect(head === 'PK', 'an .xlsx (zip) file');
    },
  ],
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit((await run(messageCases)) > 0 ? 1 : 0);
