// The browser voice engine: one PeerConnection per page for the session (media.ts), the PTT floor state machine
// (ptt.ts) and the socket events of docs/voice.md, all reflected in the zustand store (store.ts). The console and
// the phone app each create one engine on their own socket.
import { MediaLink, type InboundStats } from './media';
import { isParty, type CallInvite, type CallKind, type CallView, type FloorReply, type FloorStats, type FloorTarget, type FloorView, type MonitorState, type PriorityMode, type VoicePlaying, type VoiceSocket } from './protocol';
import { PttController } from './ptt';
import { initialVoiceState, talkersOf, useVoice, type MissedNotice, type VoiceState } from './store';

declare global {
  interface Window {
    /** This page's engine (child windows talk through their opener's; tests read its stats). */
    tenfourVoice?: VoiceEngine;
  }
}

export interface EngineOptions {
  /** This account's id (to recognise calls it started). */
  me: () => string | undefined;
  /** Ask to be queued when the floor is busy instead of being refused. */
  queue?: boolean;
  /** Keep the PTT target on the call this page started (consoles). */
  followOwnCalls?: boolean;
}

export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, msg = code) {
    super(msg);
    this.code = code;
  }
}

const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

export class VoiceEngine {
  readonly link: MediaLink;
  readonly ptt: PttController;
  private readonly sock: VoiceSocket;
  private readonly opts: EngineOptions;
  private offs: (() => void)[] = [];
  private talkMic = false;
  private monitored = false;
  private paging = false;
  private acked = new Set<string>();
  private retry = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private connecting?: Promise<void>;
  private started = false;

  constructor(sock: VoiceSocket, opts: EngineOptions) {
    this.sock = sock;
    this.opts = opts;
    this.link = new MediaLink(sock, {
      onStatus: (rtc) => this.set({ rtc }),
      onMic: (mic) => this.set({ mic }),
    });
    this.link.onLost = () => {
      this.ptt.reset('disconnected');
      this.schedule();
    };
    this.ptt = new PttController({
      request: (t) => this.floorRequest(t),
      release: (callId) => this.sock.request('floor.release', callId ? { callId } : {}),
      setMic: (on) => {
        this.talkMic = on;
        this.applyMic();
      },
      now: () => performance.now(),
      onChange: (ptt) => this.set({ ptt }),
    });
  }

  private set(patch: Partial<VoiceState> | ((s: VoiceState) => Partial<VoiceState>)) {
    useVoice.setState(patch as Partial<VoiceState>);
  }

  private applyMic() {
    this.link.setMic(this.talkMic || this.monitored || this.paging || this.onLine());
  }

  /** This page is a party of a connected full-duplex call (a phone call) and has not muted it: its line is open. */
  private onLine(): boolean {
    const s = useVoice.getState();
    const me = this.opts.me();
    return !!me && !s.lineMuted && Object.values(s.calls).some((c) => c.duplex && c.state === 'connected' && isParty(c, me));
  }

  /** Mutes (or opens again) the microphone on a full-duplex call's open line. */
  setLineMuted(muted: boolean): void {
    this.set({ lineMuted: muted });
    this.applyMic();
  }

  private async floorRequest(t: FloorTarget & { queue?: boolean }): Promise<FloorReply> {
    if (!this.link.hasMic() && !(await this.link.ensureMic())) throw new EngineError('800', 'no microphone or permission');
    if (this.link.status !== 'connected') {
      this.ensureMedia();
      throw new EngineError('502', 'no media connection');
    }
    return this.sock.request<FloorReply>('floor.request', t);
  }

  /** Subscribes to the voice events and opens the media connection. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const on = <D>(type: string, fn: (d: D) => void) => this.offs.push(this.sock.on<D>(type, (e) => fn(e.data)));
    on<FloorView>('floor.state', (f) => this.onFloor(f));
    on<{ callId: string }>('floor.granted', (d) => this.ptt.granted(d.callId));
    on<{ callId: string; code: string }>('floor.revoked', (d) => this.ptt.revoked(d.callId, String(d.code)));
    on<FloorStats>('floor.stats', (st) => this.set((s) => ({ stats: { ...s.stats, [st.callId]: st }, bursts: [st, ...s.bursts].slice(0, 50) })));
    on<CallView>('call.state', (c) => this.onCall(c));
    on<CallInvite>('call.invite', (inv) => this.onInvite(inv));
    on<MissedNotice>('call.missed', (m) => this.set((s) => ({ missed: [m, ...s.missed.filter((x) => x.id !== m.id)].slice(0, 300) })));
    on<VoicePlaying>('voice.playing', (p) => this.set({ playing: p.callId || p.msId ? p : null }));
    on<{ msId: string }>('monitor.ended', (d) => this.set((s) => ({ monitor: { ...s.monitor, terminal: s.monitor.terminal === d.msId ? '' : s.monitor.terminal } })));
    this.ensureMedia();
    void this.loadCalls();
  }

  /** After the socket reconnected: the server closed the old PeerConnection with the old connection. */
  resync(): void {
    this.ptt.reset('disconnected');
    this.retry = 0;
    clearTimeout(this.retryTimer);
    this.connecting = undefined;
    this.ensureMedia(true);
    void this.loadCalls();
  }

  stop(): void {
    this.started = false;
    clearTimeout(this.retryTimer);
    this.offs.forEach((off) => off());
    this.offs = [];
    this.ptt.reset('closed');
    this.link.destroy();
    useVoice.setState(initialVoiceState());
  }

  /** Connects the media unless it is connected or connecting. */
  ensureMedia(force = false): void {
    if (!this.started) return;
    if (!force && (this.connecting || this.link.status === 'connected')) return;
    const p = this.link.connect().then(
      () => {
        this.retry = 0;
      },
      () => this.schedule(),
    );
    this.connecting = p;
    void p.finally(() => {
      if (this.connecting === p) this.connecting = undefined;
    });
  }

  private schedule() {
    if (!this.started) return;
    clearTimeout(this.retryTimer);
    const delay = RETRY_MS[Math.min(this.retry++, RETRY_MS.length - 1)]!;
    this.retryTimer = setTimeout(() => this.ensureMedia(), delay);
  }

  private async loadCalls() {
    try {
      const { calls } = await this.sock.request<{ calls: CallView[] }>('call.list', {});
      const map: Record<string, CallView> = {};
      const floors: Record<string, FloorView> = {};
      for (const c of calls ?? []) {
        map[c.callId] = c;
        if (c.floor) floors[c.callId] = c.floor;
      }
      this.set({ calls: map, floors, talkers: talkersOf(floors) });
    } catch {
      /* offline: the next resync loads them */
    }
  }

  private onFloor(f: FloorView) {
    this.set((s) => {
      const floors = { ...s.floors, [f.callId]: f };
      return { floors, talkers: talkersOf(floors) };
    });
    const me = this.opts.me();
    if (me && f.queue?.length) {
      const i = f.queue.indexOf(me);
      this.ptt.queuePosition(f.callId, i >= 0 ? i + 1 : undefined);
    }
  }

  private onCall(c: CallView) {
    const me = this.opts.me();
    if (c.state === 'ended') {
      this.acked.delete(c.callId);
      this.set((s) => {
        const calls = { ...s.calls };
        const floors = { ...s.floors };
        delete calls[c.callId];
        delete floors[c.callId];
        return {
          calls,
          floors,
          talkers: talkersOf(floors),
          invites: s.invites.filter((i) => i.callId !== c.callId),
          joined: s.joined.filter((i) => i.callId !== c.callId),
          target: s.target?.callId === c.callId ? undefined : s.target,
          ended: { call: c, at: Date.now() },
          lineMuted: c.kind === 'single' ? false : s.lineMuted,
        };
      });
      this.applyMic();
      return;
    }
    this.set((s) => {
      const floors = c.floor ? { ...s.floors, [c.callId]: c.floor } : s.floors;
      // Talk where this page is a party: a call it started, or an individual call it answered.
      const own =
        this.opts.followOwnCalls &&
        c.state !== 'trying' &&
        ((c.initiator?.msId === me && (c.kind !== 'single' || c.state === 'connected')) || (c.kind === 'single' && c.state === 'connected' && !!me && isParty(c, me)));
      return { calls: { ...s.calls, [c.callId]: c }, floors, talkers: talkersOf(floors), ...(own && s.target?.callId !== c.callId ? { target: { callId: c.callId } } : {}) };
    });
    this.applyMic(); // a full-duplex call opens the line as it connects
    // The caller acknowledges the callee's answer (200) to connect the call (202).
    if (c.kind === 'single' && c.state === 'answered' && me && c.initiator?.msId === me && !this.acked.has(c.callId)) {
      this.acked.add(c.callId);
      this.sock.request('call.ack', { callId: c.callId }).catch(() => this.acked.delete(c.callId));
    }
  }

  private onInvite(inv: CallInvite) {
    if (inv.kind === 'single') {
      this.set((s) => ({ invites: [...s.invites.filter((i) => i.callId !== inv.callId), inv] }));
      this.sock.request('call.status', { callId: inv.callId, status: 180 }).catch(() => {});
    } else {
      this.set((s) => ({ joined: [inv, ...s.joined.filter((i) => i.callId !== inv.callId)].slice(0, 5) }));
    }
  }

  // ── talking ──

  press(target?: FloorTarget): void {
    this.link.unlock();
    this.ptt.press(target ?? useVoice.getState().target ?? {}, !!this.opts.queue);
  }

  release(): void {
    this.ptt.release();
  }

  setTarget(target: FloorTarget | undefined): void {
    this.set({ target });
  }

  /**
   * Live paging to public-address speakers (features/broadcast, docs/adr/0018): the microphone goes up the media
   * connection without a floor while on; the broadcast service routes it to the paged speakers. Rejects with
   * "800" without a microphone and "502" without a media connection.
   */
  async setPaging(on: boolean): Promise<void> {
    if (on) {
      if (!this.link.hasMic() && !(await this.link.ensureMic())) throw new EngineError('800', 'no microphone or permission');
      if (this.link.status !== 'connected') {
        this.ensureMedia();
        throw new EngineError('502', 'no media connection');
      }
    }
    this.paging = on;
    this.applyMic();
  }

  /** The server's monitoring of this terminal's microphone (terminals only; docs/voice.md §5). */
  setMonitored(on: boolean): void {
    this.monitored = on;
    this.applyMic();
  }

  // ── calls ──

  async invite(kind: CallKind, params: { msId?: string; msIds?: string[]; gid?: string; number?: string } = {}): Promise<{ callId: string; status: number }> {
    const r = await this.sock.request<{ callId: string; status: number }>('call.invite', { kind, ...params });
    if (this.opts.followOwnCalls && kind !== 'single') this.set({ target: { callId: r.callId } });
    return r;
  }

  async answer(callId: string): Promise<void> {
    await this.sock.request('call.status', { callId, status: 200 });
    this.set((s) => ({ invites: s.invites.filter((i) => i.callId !== callId) }));
  }

  async decline(callId: string, status: 603 | 486 = 603): Promise<void> {
    this.set((s) => ({ invites: s.invites.filter((i) => i.callId !== callId) }));
    await this.sock.request('call.status', { callId, status });
  }

  cancel(callId: string): Promise<unknown> {
    return this.sock.request('call.cancel', { callId });
  }

  bye(callId: string): Promise<unknown> {
    return this.sock.request('call.bye', { callId });
  }

  byeMyself(callId: string): Promise<unknown> {
    return this.sock.request('call.byeMyself', { callId });
  }

  /** Ends or leaves a call the way its state allows: cancel while it rings, bye once connected. */
  hangUp(callId: string): Promise<unknown> {
    const c = useVoice.getState().calls[callId];
    const me = this.opts.me();
    if (c && c.kind === 'single' && c.initiator?.msId === me && (c.state === 'trying' || c.state === 'ringing' || c.state === 'answered')) return this.cancel(callId);
    return this.bye(callId);
  }

  // ── listening ──

  focus(callId: string): Promise<unknown> {
    return this.sock.request('voice.focus', { callId });
  }

  priority(mode: PriorityMode): Promise<unknown> {
    return this.sock.request('voice.priority', { mode });
  }

  async monitorStart(target: { gid: string } | { msId: string }): Promise<MonitorState> {
    const m = await this.sock.request<MonitorState>('monitor.start', target);
    this.set({ monitor: { groups: m.groups ?? [], terminal: m.terminal ?? '' } });
    return m;
  }

  async monitorStop(target: { gid: string } | { msId: string } | Record<string, never> = {}): Promise<MonitorState> {
    const m = await this.sock.request<MonitorState>('monitor.stop', target);
    this.set({ monitor: { groups: m.groups ?? [], terminal: m.terminal ?? '' } });
    return m;
  }

  async monitorList(): Promise<void> {
    try {
      const m = await this.sock.request<MonitorState>('monitor.list', {});
      this.set({ monitor: { groups: m.groups ?? [], terminal: m.terminal ?? '' } });
    } catch {
      /* later */
    }
  }

  // ── output ──

  setVolume(percent: number): void {
    this.link.setVolume(percent);
  }

  setMuted(muted: boolean): void {
    this.link.setMuted(muted);
  }

  unlock(): void {
    this.link.unlock();
  }

  level(): number {
    return this.link.level();
  }

  /** The store's current state (tests and diagnostics). */
  snapshot(): VoiceState {
    return useVoice.getState();
  }

  inboundStats(): Promise<InboundStats | undefined> {
    return this.link.inboundStats();
  }
}
