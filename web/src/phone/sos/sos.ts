// SOS: the worker's alarm (type 3, the app's button) with the newest position. Raised while offline it stays
// "sending" and is sent again after the next login (the server treats a repeat as the same alarm); the dispatcher's
// acknowledgement shows who is coming; the worker can cancel a false alarm.
import { create } from 'zustand';
import { useLocation } from '../location/location';
import { phoneSocket } from '../session/store';
import { codeOf, TermError, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export interface SosState {
  state: 'idle' | 'sending' | 'open' | 'acked';
  id?: string;
  /** Who acknowledged it. */
  responder?: string;
  /** The code of the last failed attempt (kept "sending"). */
  error?: string;
}

/** How long the SOS button is held before the alarm goes out. */
export const SOS_HOLD_MS = 2000;

export const useSos = create<SosState>(() => ({ state: 'idle' }));

export function resetSos(): void {
  useSos.setState({ state: 'idle' }, true);
}

function closed() {
  resetSos();
  notify('sos.closed');
}

export async function raiseSos(): Promise<void> {
  const sock = phoneSocket();
  if (!sock) return;
  const last = useLocation.getState().last;
  useSos.setState((s) => ({ state: s.state === 'idle' ? 'sending' : s.state, error: undefined }));
  navigator.vibrate?.([500, 200, 500]);
  try {
    const r = await sock.request<{ id: string; state: number }>('sos.raise', { type: '3', ...(last ? { lat: last.lat, lng: last.lng } : {}) });
    useSos.setState((s) => ({ state: r.state === 1 || s.state === 'acked' ? 'acked' : 'open', id: String(r.id) }));
  } catch (e) {
    // Kept as "sending": sent again after the next login.
    useSos.setState({ error: codeOf(e) });
  }
}

/** After a login: an SOS raised while offline goes out now. */
export function resendSos(): void {
  if (useSos.getState().state === 'sending') void raiseSos();
}

export async function cancelSos(): Promise<void> {
  const id = useSos.getState().id;
  const sock = phoneSocket();
  if (!sock) return;
  try {
    await sock.request('sos.cancel', id ? { id } : {});
  } catch (e) {
    // 91: the alarm is already closed; anything else leaves it raised.
    if (!(e instanceof TermError && e.code === '91')) {
      notify('errors.generic', { code: codeOf(e) });
      return;
    }
  }
  resetSos();
}

/** The banner's text: the message key and its values. */
export function sosMessage(s: SosState): [key: string, vars?: Record<string, string>] {
  switch (s.state) {
    case 'idle':
      return [''];
    case 'sending':
      return [s.error ? 'sos.retry' : 'sos.sending'];
    case 'acked':
      return s.responder ? ['sos.acked', { name: s.responder }] : ['sos.ackedNobody'];
    case 'open':
      return ['sos.open'];
  }
}

/** The dispatcher's side: stop (sos.stop request), acknowledged and closed (events). */
export function attachSos(s: TerminalSocket): void {
  s.handle('sos.stop', () => closed());
  s.on<{ id: string; responderName?: string; responder?: string }>('sos.acked', (e) =>
    useSos.setState({ state: 'acked', id: String(e.data.id), responder: e.data.responderName || e.data.responder }),
  );
  s.on('sos.closed', () => closed());
}
