// What makes a call ringing here hard to miss (issue 32 item 5), whatever kind it is: the ring tone while it waits,
// and a desktop notification when the console's tab is hidden (shown at once if it already is, or as soon as the
// dispatcher looks away). Pure of React so the rule is tested on its own; IncomingCallPrompt uses it.
import { desktopNotify } from '../notify';
import { startRing } from '../voice/ring';

export interface RingingCall {
  /** One desktop notification per call: a second one with the same tag replaces it instead of stacking. */
  tag: string;
  title: string;
  body: string;
  /** Ring tone volume 0–100; undefined: no tone (the user turned call tones off). */
  volume?: number;
}

export interface RingingDeps {
  ring: (volume: number) => () => void;
  notify: (tag: string, title: string, body: string, sticky: boolean) => void;
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

const browser = (): RingingDeps => ({ ring: startRing, notify: desktopNotify, doc: document });

/** Starts ringing for a call; returns the function that stops the tone and stops watching the tab. */
export function startRinging(call: RingingCall, deps: RingingDeps = browser()): () => void {
  const stopTone = call.volume === undefined ? () => {} : deps.ring(call.volume);
  let notified = false;
  const onVisibility = () => {
    if (notified || deps.doc.visibilityState !== 'hidden') return;
    notified = true;
    deps.notify(call.tag, call.title, call.body, true);
  };
  onVisibility();
  deps.doc.addEventListener('visibilitychange', onVisibility);
  return () => {
    stopTone();
    deps.doc.removeEventListener('visibilitychange', onVisibility);
  };
}
