// The suite's terminal driver: one demo terminal logged in over the terminal socket (docs/terminal-protocol.md) from
// Node, driven step by step by the case that needs it. The demo fleet of the suite is quiet (serve
// --demo-fleet-quiet): nothing happens that a case did not ask for.
//
// Accounts: the fleet never runs 10000150…10000176 (left to people and tests). A case uses one of them and closes it
// at its end; cases run one after another, so the same account serves several cases.
import WebSocket from 'ws';
import { BASE, expect, until } from './harness.mjs';

const PASSWORD = '123456';

/**
 * Logs uid in as a terminal. Every server request is recorded and answered once ("0", or answers[type]), every
 * event recorded; onFrame(frame, terminal) sees each of them after that (e.g. to acknowledge an answered call).
 * status: a status.report sent right after the login, as a device does ({ battery, signal }).
 */
export async function terminal(uid, { answers = {}, onFrame, status } = {}) {
  const ws = new WebSocket(`${BASE.replace(/^http/, 'ws')}/ds/ws`);
  const received = [];
  const pending = new Map();
  let next = 1;
  const send = (f) => ws.send(JSON.stringify(f));

  /** Sends a request; resolves with the reply frame and the time it was sent (code "closed" if the socket ended). */
  const request = (type, data = {}) =>
    new Promise((resolve) => {
      const id = next++;
      const sentAt = Date.now();
      pending.set(id, (f) => resolve({ ...f, sentAt, answeredAt: Date.now() }));
      send({ id, type, data });
    });

  const t = {
    uid,
    request,
    /** gps.report: one position, or { points: [...] }. */
    report: (data) => request('gps.report', data),
    /** Frames of this type the server sent (requests and events), oldest first. */
    received: (type) => received.filter((f) => f.type === type),
    /** Waits until the server sent a frame of this type that matches pred; resolves with it. */
    waitFor: (type, pred = () => true, what = `${uid} receives ${type}`, timeoutMs = 15_000) =>
      until(() => received.find((f) => f.type === type && pred(f)), what, timeoutMs, 20),
    /** file.token, then POST /filews/upload/media: resolves with the file service's envelope. */
    upload: async (bytes, name, kind) => {
      const tok = await request('file.token');
      if (tok.code !== '0') return tok;
      const form = new FormData();
      if (kind) form.append('kind', kind);
      form.append('file', new Blob([bytes]), name);
      const res = await fetch(new URL(tok.data.uploadUrl, BASE), { method: 'POST', headers: { token: tok.data.token }, body: form });
      return res.json();
    },
    /** The HTTP status of a GET of a served file URL (with its ?token=). */
    fetchStatus: async (url) => (await fetch(new URL(url, BASE))).status,
    /** Closes the socket; resolves once the server has closed it too. */
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', resolve);
        ws.close();
      }),
  };

  ws.on('message', (raw) => {
    const f = JSON.parse(raw.toString());
    if (typeof f.re === 'number') {
      pending.get(f.re)?.(f);
      pending.delete(f.re);
      return;
    }
    received.push({ ...f, at: Date.now() });
    if (typeof f.id === 'number') send({ re: f.id, type: f.type, code: answers[f.type] ?? '0' });
    onFrame?.(f, t);
  });
  ws.on('close', () => {
    for (const done of pending.values()) done({ code: 'closed' });
    pending.clear();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.on('error', (e) => (ws.readyState === WebSocket.CONNECTING ? reject(e) : undefined)); // later: 'close' follows
  });
  const login = await request('session.login', { client: 'terminal', uid, auth: PASSWORD });
  expect(login.code === '0', `terminal ${uid} socket login answered ${JSON.stringify(login)}`);
  if (status) {
    const st = await request('status.report', status);
    expect(st.code === '0', `${uid} status.report answered ${JSON.stringify(st)}`);
  }
  return t;
}
