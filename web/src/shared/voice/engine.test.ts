import { afterEach, describe, expect, it, vi } from 'vitest';
import { VoiceEngine } from './engine';
import { canPlay, fmtDuration, fmtUs, type CallView, type FloorView, type VoiceSocket } from './protocol';
import { useVoice } from './store';

/** A socket double: records requests, answers them from a table, lets the test emit events. */
function fakeSocket(answers: Record<string, (data: unknown) => unknown> = {}) {
  const sent: { type: string; data: unknown }[] = [];
  const listeners = new Map<string, Set<(e: { type: string; data: unknown }) => void>>();
  const sock: VoiceSocket = {
    request: <R,>(type: string, data?: unknown) => {
      sent.push({ type, data });
      const fn = answers[type];
      if (!fn) return Promise.reject(Object.assign(new Error('no'), { code: '4' }));
      try {
        return Promise.resolve(fn(data) as R);
      } catch (e) {
        return Promise.reject(e);
      }
    },
    on: <D,>(type: string, fn: (e: { type: string; data: D }) => void) => {
      let set = listeners.get(type);
      if (!set) listeners.set(type, (set = new Set()));
      set.add(fn as (e: { type: string; data: unknown }) => void);
      return () => set.delete(fn as (e: { type: string; data: unknown }) => void);
    },
  };
  const emit = (type: string, data: unknown) => listeners.get(type)?.forEach((fn) => fn({ type, data }));
  return { sock, sent, emit };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const person = (msId: string, name = msId) => ({ msId, name, type: '10' });

describe('voice engine events', () => {
  let engine: VoiceEngine | undefined;
  afterEach(() => {
    engine?.stop();
    engine = undefined;
  });

  function start(answers: Record<string, (data: unknown) => unknown> = {}) {
    const f = fakeSocket({ 'call.list': () => ({ calls: [] }), 'call.ack': () => ({}), 'call.status': () => ({}), 'call.invite': () => ({ callId: 'T1', status: 202 }), ...answers });
    engine = new VoiceEngine(f.sock, { me: () => '10000001', followOwnCalls: true });
    engine.start();
    return f;
  }

  it('floor.state feeds the talkers (tree highlight) and clears them when the talker stops', async () => {
    const f = start();
    await flush();
    const floor: FloorView = { callId: 'g1', kind: 'group', gid: '5', gName: 'Emergency', talker: person('10000156', 'App 156'), since: 1, queue: [], maxTalkMs: 60000 };
    f.emit('floor.state', floor);
    expect(useVoice.getState().talkers).toEqual({ '10000156': 'g1' });
    f.emit('floor.state', { ...floor, talker: null });
    expect(useVoice.getState().talkers).toEqual({});
  });

  it('an incoming individual call rings (call.status 180) and waits for an answer', async () => {
    const f = start();
    f.emit('call.invite', { callId: 'S1', kind: 'single', from: person('10000156'), status: 100 });
    expect(useVoice.getState().invites.map((i) => i.callId)).toEqual(['S1']);
    expect(f.sent.find((s) => s.type === 'call.status')?.data).toEqual({ callId: 'S1', status: 180 });
    await engine!.answer('S1');
    expect(f.sent.filter((s) => s.type === 'call.status').at(-1)?.data).toEqual({ callId: 'S1', status: 200 });
    expect(useVoice.getState().invites).toEqual([]);
  });

  it('the caller acknowledges the answer once (call.ack), then talks in the call', async () => {
    const f = start();
    const call: CallView = { callId: 'S2', kind: 'single', state: 'answered', status: 200, initiator: person('10000001'), started: 1 };
    f.emit('call.state', call);
    f.emit('call.state', call);
    expect(f.sent.filter((s) => s.type === 'call.ack')).toEqual([{ type: 'call.ack', data: { callId: 'S2' } }]);
    f.emit('call.state', { ...call, state: 'connected', status: 202 });
    expect(useVoice.getState().target).toEqual({ callId: 'S2' });
    f.emit('call.state', { ...call, state: 'ended', status: 200 });
    expect(useVoice.getState().target).toBeUndefined();
    expect(useVoice.getState().calls).toEqual({});
    expect(useVoice.getState().ended?.call.callId).toBe('S2');
  });

  it('a connected full-duplex call opens the microphone until muted or ended', async () => {
    const f = start();
    const mic = vi.spyOn(engine!.link, 'setMic');
    const call: CallView = { callId: 'S3', kind: 'single', state: 'connected', status: 202, initiator: person('10000180'), parties: [{ ...person('10000180'), state: 'connected' }, { ...person('10000001'), state: 'connected' }], started: 1 };
    f.emit('call.state', call); // half duplex: the microphone waits for PTT
    expect(mic).toHaveBeenLastCalledWith(false);
    f.emit('call.state', { ...call, duplex: true });
    expect(mic).toHaveBeenLastCalledWith(true);
    engine!.setLineMuted(true);
    expect(mic).toHaveBeenLastCalledWith(false);
    expect(useVoice.getState().lineMuted).toBe(true);
    engine!.setLineMuted(false);
    expect(mic).toHaveBeenLastCalledWith(true);
    f.emit('call.state', { ...call, state: 'ended', status: 200 });
    expect(mic).toHaveBeenLastCalledWith(false);
    // another account's duplex call (a console sees every call) leaves this microphone alone
    f.emit('call.state', { ...call, callId: 'S4', duplex: true, initiator: person('10000180'), parties: [{ ...person('10000180'), state: 'connected' }, { ...person('10000002'), state: 'connected' }] });
    expect(mic).toHaveBeenLastCalledWith(false);
  });

  it('a call started here becomes the PTT target; hanging up while it rings cancels', async () => {
    const f = start({ 'call.cancel': () => ({}) });
    await engine!.invite('temp', { msIds: ['10000156'] });
    expect(useVoice.getState().target).toEqual({ callId: 'T1' });
    f.emit('call.state', { callId: 'S3', kind: 'single', state: 'ringing', status: 180, initiator: person('10000001'), started: 1 });
    await engine!.hangUp('S3');
    expect(f.sent.filter((s) => s.type.startsWith('call.')).at(-1)).toEqual({ type: 'call.cancel', data: { callId: 'S3' } });
  });

  it('keeps the last burst statistics per call and who is playing', async () => {
    const f = start();
    f.emit('floor.stats', { callId: 'g1', msId: '10000001', btime: 1, durationMs: 2000, pressToGrantUs: 250, grantToFirstUs: 9000, delayP50Us: 40, delayP99Us: 120, packets: 100, reason: 'released' });
    expect(useVoice.getState().stats.g1?.delayP99Us).toBe(120);
    f.emit('voice.playing', { callId: 'g1', msId: '10000156', kind: 'group' });
    expect(useVoice.getState().playing?.msId).toBe('10000156');
    f.emit('voice.playing', { callId: '', msId: '' });
    expect(useVoice.getState().playing).toBeNull();
  });

  it('without a microphone a press is refused with 800 and nothing is requested', async () => {
    const f = start();
    engine!.press();
    await flush();
    await flush();
    expect(useVoice.getState().ptt.error?.code).toBe('800');
    expect(f.sent.some((s) => s.type === 'floor.request')).toBe(false);
  });
});

describe('records and figures', () => {
  it('SD records can be neither played nor downloaded (spec §9)', () => {
    expect(canPlay({ quality: 'HD', playable: true, url: '/ds/data/voice?callid=a&btime=1' })).toBe(true);
    expect(canPlay({ quality: 'SD', playable: true, url: '/ds/data/voice?callid=a&btime=1' })).toBe(false);
    expect(canPlay({ quality: 'sd', url: '/x' })).toBe(false);
    expect(canPlay({ quality: 'HD', playable: false, url: '/x' })).toBe(false);
    expect(canPlay({ quality: 'HD' })).toBe(false);
  });

  it('formats microseconds and durations', () => {
    expect(fmtUs(275)).toBe('0.3 ms');
    expect(fmtUs(12_700)).toBe('13 ms');
    expect(fmtUs(1_500_000)).toBe('1.5 s');
    expect(fmtUs(undefined)).toBe('—');
    expect(fmtDuration(65_400)).toBe('1:05');
  });
});
