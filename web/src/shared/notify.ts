// A tiny bridge so non-React code (http hooks) can show a toast through antd's App context.
type Kind = 'error' | 'warning' | 'info' | 'success';
let sink: ((kind: Kind, text: string) => void) | undefined;
const queue: [Kind, string][] = [];

export function setNotifySink(fn: (kind: Kind, text: string) => void): void {
  sink = fn;
  queue.splice(0).forEach(([k, t]) => fn(k, t));
}

export function notifyGlobal(kind: Kind, text: string): void {
  if (sink) sink(kind, text);
  else queue.push([kind, text]);
}
