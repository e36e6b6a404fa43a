// Push-to-talk floor state machine (docs/voice.md §2), free of the DOM and of WebRTC so it can be tested alone.
//
//   idle ──press──▶ requesting ──reply granted──▶ talking ──release / revoked──▶ idle
//                        │  └────reply queued───▶ queued ──floor.granted──▶ talking
//                        └──reply error──▶ idle (error kept for the UI; no reply in time: floor.release too)
//
// Ordering rule of the protocol: socket requests run concurrently on the server, so floor.release must not be
// sent before the floor.request reply came. A button released while the request is in flight only marks the
// release; the reply then releases at once (granted or queued), and a press again before the reply cancels that.

import type { FloorReply, FloorTarget } from './protocol';

export type FloorPhase = 'idle' | 'requesting' | 'talking' | 'queued';

export interface PttSnapshot {
  phase: FloorPhase;
  /** The button or key is held. */
  pressed: boolean;
  callId?: string;
  /** 1-based queue position while queued. */
  position?: number;
  pressAt?: number;
  grantAt?: number;
  /** Measured in the browser: press → granted (ms). */
  accessMs?: number;
  /** The server's own press → grant (µs), from the reply. */
  serverAccessUs?: number;
  maxTalkMs?: number;
  /** The last refusal or revocation: a socket code ("486", "606", "418", "preempted", "800" no microphone…). */
  error?: { code: string; at: number };
}

export interface PttDeps {
  request(target: FloorTarget & { queue?: boolean }): Promise<FloorReply>;
  release(callId?: string): Promise<unknown>;
  setMic(on: boolean): void;
  now(): number;
  onChange(s: PttSnapshot): void;
}

export const IDLE: PttSnapshot = { phase: 'idle', pressed: false };

function codeOf(e: unknown): string {
  if (e && typeof e === 'object' && 'code' in e) return String((e as { code: unknown }).code);
  return 'failed';
}

export class PttController {
  private s: PttSnapshot = IDLE;
  private seq = 0;
  private earlyGrant?: string;
  private readonly deps: PttDeps;

  constructor(deps: PttDeps) {
    this.deps = deps;
  }

  get state(): PttSnapshot {
    return this.s;
  }

  private set(patch: Partial<PttSnapshot>) {
    this.s = { ...this.s, ...patch };
    this.deps.onChange(this.s);
  }

  private doRelease(callId?: string) {
    this.deps.release(callId).catch(() => {});
  }

  /** Button down / key down. Repeats while held are ignored. */
  press(target: FloorTarget = {}, queue = false): void {
    if (this.s.pressed) return;
    if (this.s.phase === 'requesting') {
      // Released and pressed again before the reply: keep the request in flight.
      this.set({ pressed: true });
      return;
    }
    if (this.s.phase !== 'idle') return;
    const token = ++this.seq;
    this.earlyGrant = undefined;
    const pressAt = this.deps.now();
    this.set({ phase: 'requesting', pressed: true, pressAt, grantAt: undefined, accessMs: undefined, serverAccessUs: undefined, callId: undefined, position: undefined, error: undefined });
    let sent: Promise<FloorReply>;
    try {
      sent = this.deps.request({ ...target, ...(queue ? { queue: true } : {}) });
    } catch (e) {
      sent = Promise.reject(e);
    }
    sent.then(
      (r) => this.onReply(token, r),
      (e) => this.onError(token, e),
    );
  }

  /** Button up / key up / focus lost. */
  release(): void {
    if (!this.s.pressed) return;
    switch (this.s.phase) {
      case 'requesting':
        this.set({ pressed: false }); // the reply releases
        return;
      case 'talking':
        this.deps.setMic(false);
        this.doRelease(this.s.callId);
        this.set({ phase: 'idle', pressed: false });
        return;
      case 'queued':
        this.doRelease(this.s.callId);
        this.set({ phase: 'idle', pressed: false, position: undefined });
        return;
      default:
        this.set({ pressed: false });
    }
  }

  private onReply(token: number, r: FloorReply) {
    if (token !== this.seq) {
      // Reset meanwhile (connection lost): give back what the server gave us.
      this.doRelease(r.callId);
      return;
    }
    const now = this.deps.now();
    const granted = r.status === 'granted' || (r.status === 'queued' && this.earlyGrant === r.callId);
    this.earlyGrant = undefined;
    if (!this.s.pressed) {
      this.doRelease(r.callId);
      this.set({ phase: 'idle', callId: r.callId, ...(granted ? { accessMs: now - (this.s.pressAt ?? now), serverAccessUs: r.pressToGrantUs } : {}) });
      return;
    }
    if (granted) {
      this.deps.setMic(true);
      this.set({ phase: 'talking', callId: r.callId, grantAt: now, accessMs: now - (this.s.pressAt ?? now), serverAccessUs: r.pressToGrantUs, maxTalkMs: r.maxTalkMs, position: undefined });
    } else {
      this.set({ phase: 'queued', callId: r.callId, position: r.position, maxTalkMs: r.maxTalkMs });
    }
  }

  private onError(token: number, e: unknown) {
    if (token !== this.seq) return;
    // No answer in time: the server may still decide the press after this, and granted it would hold the floor
    // untold (docs/voice.md §2) — a release with no call lets go of whatever the press gets, and a press decided
    // after it is refused.
    if (codeOf(e) === 'timeout') this.doRelease();
    this.deps.setMic(false);
    this.set({ phase: 'idle', error: { code: codeOf(e), at: this.deps.now() } });
  }

  /** `floor.granted`: a queued request got the floor. */
  granted(callId: string): void {
    if (this.s.phase === 'requesting') {
      this.earlyGrant = callId; // the event overtook the "queued" reply
      return;
    }
    if (this.s.phase !== 'queued' || this.s.callId !== callId) return;
    if (!this.s.pressed) {
      this.doRelease(callId);
      this.set({ phase: 'idle' });
      return;
    }
    const now = this.deps.now();
    this.deps.setMic(true);
    this.set({ phase: 'talking', grantAt: now, accessMs: now - (this.s.pressAt ?? now), position: undefined });
  }

  /** `floor.revoked`: pre-empted, maximum talk time, or blocked. The user must release and press again. */
  revoked(callId: string, code: string): void {
    if ((this.s.phase !== 'talking' && this.s.phase !== 'queued') || this.s.callId !== callId) return;
    this.deps.setMic(false);
    this.set({ phase: 'idle', position: undefined, error: { code, at: this.deps.now() } });
  }

  /** The connection is gone: whatever we held is lost on the server too. */
  reset(code = 'disconnected'): void {
    this.seq++;
    this.deps.setMic(false);
    if (this.s.phase === 'idle' && !this.s.pressed) return;
    this.set({ phase: 'idle', pressed: false, position: undefined, error: this.s.phase === 'idle' ? this.s.error : { code, at: this.deps.now() } });
  }

  /** Update the queue position from `floor.state` (the queue lists account ids). */
  queuePosition(callId: string, position: number | undefined): void {
    if (this.s.phase === 'queued' && this.s.callId === callId && position && position !== this.s.position) this.set({ position });
  }
}
