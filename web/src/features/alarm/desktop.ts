// Desktop notifications for alarms (asked for on the first gesture; browsers ignore a request without one).
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

/** Shows (or replaces, same tag) a desktop notification; a click brings the console to the front. */
export function desktopNotify(tag: string, title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag, requireInteraction: true, renotify: true } as NotificationOptions);
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    /* some platforms allow notifications only from a service worker */
  }
}
