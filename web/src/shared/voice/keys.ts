// The push-to-talk key: down on keydown (repeats ignored), up on keyup *wherever focus is*, and also when the window
// loses focus or is hidden — a key released in another window never reaches this one, and a stuck PTT would keep
// the floor until the maximum talk time.

export interface PttKeyOptions {
  /** The KeyboardEvent.code (or .key) of the PTT key; read at every event so a settings change applies at once. */
  code: () => string | string[];
  onDown: () => void;
  onUp: () => void;
  /** Keys that toggle (press once to talk, once to stop): headset buttons that send no keyup. */
  toggleCodes?: () => string[];
}

const PRINTABLE = /^(Space|Key[A-Z]|Digit\d|Numpad\d|Minus|Equal|Bracket(Left|Right)|Semicolon|Quote|Backquote|Backslash|Comma|Period|Slash)$/;

/** Typing into a field must not talk: a printable key there belongs to the field. */
export function isTypingTarget(target: EventTarget | null, code: string): boolean {
  if (!PRINTABLE.test(code)) return false;
  const el = target as HTMLElement | null;
  if (!el || typeof el !== 'object' || !('tagName' in el)) return false;
  const tag = String(el.tagName).toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return !!el.isContentEditable;
}

function matches(e: KeyboardEvent, want: string | string[]): boolean {
  const list = Array.isArray(want) ? want : [want];
  return list.some((w) => !!w && (e.code === w || e.key === w));
}

/** Binds the PTT key on a window; returns the unbind function. */
export function bindPttKey(win: Window, opts: PttKeyOptions): () => void {
  let down = false;
  let toggled = false;
  const up = () => {
    if (!down) return;
    down = false;
    toggled = false;
    opts.onUp();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const toggles = opts.toggleCodes?.() ?? [];
    if (toggles.length && matches(e, toggles)) {
      if (e.repeat) return;
      e.preventDefault();
      if (down && toggled) up();
      else if (!down) {
        down = true;
        toggled = true;
        opts.onDown();
      }
      return;
    }
    if (!matches(e, opts.code())) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (isTypingTarget(e.target, e.code)) return;
    e.preventDefault(); // no page scroll, no "click" of a focused button
    if (e.repeat || down) return;
    down = true;
    opts.onDown();
  };
  const onKeyUp = (e: KeyboardEvent) => {
    if (!down || toggled) return;
    if (!matches(e, opts.code())) return;
    e.preventDefault();
    up();
  };
  const onHidden = () => {
    if (win.document.visibilityState === 'hidden') up();
  };
  win.addEventListener('keydown', onKeyDown, true);
  win.addEventListener('keyup', onKeyUp, true);
  win.addEventListener('blur', up);
  win.addEventListener('pagehide', up);
  win.document.addEventListener('visibilitychange', onHidden);
  return () => {
    up();
    win.removeEventListener('keydown', onKeyDown, true);
    win.removeEventListener('keyup', onKeyUp, true);
    win.removeEventListener('blur', up);
    win.removeEventListener('pagehide', up);
    win.document.removeEventListener('visibilitychange', onHidden);
  };
}

/** Unlocks audio output on the first user gesture (browsers refuse to play before one). */
export function onFirstGesture(win: Window, fn: () => void): () => void {
  const events = ['pointerdown', 'keydown', 'touchend'] as const;
  const once = () => {
    off();
    fn();
  };
  const off = () => events.forEach((ev) => win.removeEventListener(ev, once, true));
  events.forEach((ev) => win.addEventListener(ev, once, true));
  return off;
}
