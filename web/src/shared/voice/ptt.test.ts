// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { FloorReply, FloorTarget } from './protocol';
import { PttController, type PttSnapshot } from './ptt';

/** A controller with a hand-driven server: each request waits until the test answers it. */
function rig() {
  const log: string[] = [];
  const pending: { target: FloorTarget & { queue?: boolean }; resolve: (r: FloorReply) => void; reject: (e: unknown) => void }[] = [];
  let mic = false;
  let now = 1000;
  const states: PttSnapshot[] = [];
  const c = new PttController({
    request: (target) => {
      log.push(`request ${JSON.stringify(target)}`);
      return new Promise((resolve, reject) => pending.push({ target, resolve, reject }));
    },
    release: (callId) => {
      log.push(`release ${callId ?? ''}`);
      return Promise.resolve({});
    },
    setMic: (on) => {
      mic = on;
      log.push(`mic ${on ? 'on' : 'off'}`);
    },
    now: () => now,
    onChange: (s) => states.push(s),
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const reply = async (r: Partial<FloorReply> & { status: FloorReply['status'] }) => {
    pending.shift()!.resolve({ callId: 'c1', maxTalkMs: 60000, ...r } as FloorReply);
    await flush();
  };
  const refuse = async (code: string) => {
    pending.shift()!.reject({ code });
    await flush();
  };
  return { c, log, pending, reply, refuse, mic: () => mic, tick: (ms: number) => (now += ms), states };
}

describe('PTT floor state machine (docs/voice.md §2)', () => {
  it('press → requesting → granted: talking with the microphone on; release gives the floor back', async () => {
    const r = rig();
    r.c.press({ gid: '5' });
    expect(r.c.state.phase).toBe('requesting');
    expect(r.mic()).toBe(false);
    r.tick(42);
    await r.reply({ status: 'granted', pressToGrantUs: 300 });
    expect(r.c.state).toMatchObject({ phase: 'talking', callId: 'c1', accessMs: 42, serverAccessUs: 300 });
    expect(r.mic()).toBe(true);
    r.c.release();
    expect(r.c.state.phase).toBe('idle');
    expect(r.mic()).toBe(false);
    expect(r.log).toEqual(['request {"gid":"5"}', 'mic on', 'mic off', 'release c1']);
  });

  it('never sends floor.release before the floor.request reply: an early release waits for it', async () => {
    const r = rig();
    r.c.press();
    r.c.release();
    expect(r.log).toEqual(['request {}']); // nothing yet
    expect(r.c.state).toMatchObject({ phase: 'requesting', pressed: false });
    await r.reply({ status: 'granted' });
    expect(r.log).toEqual(['request {}', 'release c1']);
    expect(r.c.state.phase).toBe('idle');
    expect(r.mic()).toBe(false);
  });

  it('an early release of a queued request leaves the queue once the reply came', async () => {
    const r = rig();
    r.c.press({}, true);
    expect(r.log[0]).toBe('request {"queue":true}');
    r.c.release();
    await r.reply({ status: 'queued', position: 2 });
    expect(r.log).toEqual(['request {"queue":true}', 'release c1']);
    expect(r.c.state.phase).toBe('idle');
  });

  it('pressing again before the reply keeps the request: it talks when granted', async () => {
    const r = rig();
    r.c.press();
    r.c.release();
    r.c.press();
    expect(r.pending).toHaveLength(1);
    await r.reply({ status: 'granted' });
    expect(r.c.state.phase).toBe('talking');
    expect(r.log).toEqual(['request {}', 'mic on']);
  });

  it('ignores key repeat while held', async () => {
    const r = rig();
    r.c.press();
    r.c.press();
    r.c.press();
    expect(r.pending).toHaveLength(1);
    await r.reply({ status: 'granted' });
    r.c.press();
    expect(r.pending).toHaveLength(0);
  });

  it('queued → floor.granted while held: talking; position follows floor.state', async () => {
    const r = rig();
    r.c.press({}, true);
    await r.reply({ status: 'queued', position: 2 });
    expect(r.c.state).toMatchObject({ phase: 'queued', position: 2 });
    r.c.queuePosition('c1', 1);
    expect(r.c.state.position).toBe(1);
    r.c.granted('other');
    expect(r.c.state.phase).toBe('queued');
    r.c.granted('c1');
    expect(r.c.state.phase).toBe('talking');
    expect(r.mic()).toBe(true);
  });

  it('a floor.granted that overtakes the "queued" reply counts as a grant', async () => {
    const r = rig();
    r.c.press({}, true);
    r.c.granted('c1');
    await r.reply({ status: 'queued', position: 1 });
    expect(r.c.state.phase).toBe('talking');
  });

  it('refused (486 busy): back to idle with the code, microphone off', async () => {
    const r = rig();
    r.c.press();
    await r.refuse('486');
    expect(r.c.state.phase).toBe('idle');
    expect(r.c.state.error?.code).toBe('486');
    expect(r.mic()).toBe(false);
    r.c.release();
    expect(r.log).toEqual(['request {}', 'mic off']);
  });

  it('no reply in time: idle with the code, and floor.release with no call, so a press decided late is refused', async () => {
    const r = rig();
    r.c.press();
    await r.refuse('timeout');
    expect(r.c.state).toMatchObject({ phase: 'idle', error: { code: 'timeout' } });
    r.c.release();
    expect(r.log).toEqual(['request {}', 'release ', 'mic off']);
  });

  it('revoked (pre-empted, 418, 606): microphone off at once; the release that follows sends nothing more', async () => {
    for (const code of ['preempted', '418', '606']) {
      const r = rig();
      r.c.press();
      await r.reply({ status: 'granted' });
      r.c.revoked('c1', code);
      expect(r.c.state).toMatchObject({ phase: 'idle', pressed: true, error: { code } });
      expect(r.mic()).toBe(false);
      r.c.release();
      expect(r.log.filter((l) => l.startsWith('release'))).toEqual([]);
      // A new press talks again.
      r.c.press();
      expect(r.pending).toHaveLength(1);
    }
  });

  it('a revocation of another call is ignored', async () => {
    const r = rig();
    r.c.press();
    await r.reply({ status: 'granted' });
    r.c.revoked('c2', 'preempted');
    expect(r.c.state.phase).toBe('talking');
  });

  it('a connection reset while requesting gives back a late grant', async () => {
    const r = rig();
    r.c.press();
    r.c.reset();
    expect(r.c.state).toMatchObject({ phase: 'idle', pressed: false, error: { code: 'disconnected' } });
    await r.reply({ status: 'granted' });
    expect(r.c.state.phase).toBe('idle');
    expect(r.mic()).toBe(false);
    expect(r.log.at(-1)).toBe('release c1');
  });

  it('a reset while talking turns the microphone off', async () => {
    const r = rig();
    r.c.press();
    await r.reply({ status: 'granted' });
    r.c.reset('closed');
    expect(r.mic()).toBe(false);
    expect(r.c.state.phase).toBe('idle');
  });

  it('a request that throws synchronously ends as a refusal', async () => {
    const c = new PttController({
      request: () => {
        throw Object.assign(new Error('no mic'), { code: '800' });
      },
      release: () => Promise.resolve(),
      setMic: () => {},
      now: () => 0,
      onChange: () => {},
    });
    c.press();
    await new Promise((r) => setTimeout(r, 0));
    expect(c.state).toMatchObject({ phase: 'idle', error: { code: '800' } });
  });
});
