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

// ---- desktop notifications (asked for on the first gesture; browsers ignore a request without one) ----------
let asked = false;

export function askNotificationPermission(): void {
  if (asked || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  asked = true;
  try {
    void Notification.requestPermission().catch(() => {});
  } catch {
    /* old callback-style API or blocked: no desktop notifications */
  }
}

/**
 * Shows (or replaces, same tag) a desktop notification when the user allowed them; the in-page notice is shown
 * regardless. A sticky one stays until dismissed, rings again when replaced and brings the console to the front.
 */
export function desktopNotify(tag: string, title: string, body: string, sticky = false): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag, ...(sticky ? { requireInteraction: true, renotify: true } : {}) } as NotificationOptions);
    if (sticky)
      n.onclick = () => {
        window.focus();
        n.close();
      };
  } catch {
    /* some platforms allow notifications only from a service worker */
  }
}
