// A scripted WebSocket for socket client tests: records what the client sends, lets the test open, close,
// answer requests and push events.
export class FakeWS {
  static all: FakeWS[] = [];
  readyState = 0;
  sent: { id?: number; type: string; data?: Record<string, unknown> }[] = [];
  onopen?: () => void;
  onmessage?: (m: { data: string }) => void;
  onclose?: () => void;
  onerror?: () => void;
  constructor(public url: string) {
    FakeWS.all.push(this);
  }
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** Answers the i-th frame the client sent. */
  reply(i: number, code = '0', data: unknown = {}) {
    const req = this.sent[i]!;
    this.onmessage?.({ data: JSON.stringify({ re: req.id, type: req.type, code, data }) });
  }
  event(type: string, data: unknown, seq?: number) {
    this.onmessage?.({ data: JSON.stringify({ type, data, seq }) });
  }
}
