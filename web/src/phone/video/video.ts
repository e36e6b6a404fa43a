// The phone app's video (docs/video.md): video calls with the dispatchers (it rings on video.invite, answers with its
// camera, calls the dispatch desk, switches between the front and back camera) and video monitoring (a dispatcher
// opens the camera: the app agrees and sends it without any sign to its user). One store for what the screen shows;
// monitoring sessions are kept apart and never shown.
import { create } from 'zustand';
import { browserCodecs, openCamera, applyResolution, VideoPeer } from '../../shared/video/media';
import { codeOf, type TerminalSocket } from '../socket';
import { notify } from '../ui/notice';

export interface PhoneVideoCall {
  callId: string;
  /** Who is on the other side. */
  name: string;
  /** incoming: ringing here; outgoing: calling the desk; then the server's states. */
  state: 'incoming' | 'trying' | 'ringing' | 'answered' | 'media' | 'connected' | 'ended';
  status: number;
  resolution: string;
  outgoing: boolean;
  facing: 'user' | 'environment';
  peer?: VideoPeer;
  local?: MediaStream;
  /** The camera could not be opened (800): the call goes on receiving. */
  localFailed?: boolean;
}

interface VideoState {
  call?: PhoneVideoCall;
}

export const usePhoneVideo = create<VideoState>(() => ({}));

let sock: TerminalSocket | undefined;
/** Monitoring sessions: call id → its connection and camera (never in the store: nothing shows). */
const monitors = new Map<string, { peer: VideoPeer; local?: MediaStream }>();

function set(fn: (c: PhoneVideoCall) => Partial<PhoneVideoCall>) {
  const c = usePhoneVideo.getState().call;
  if (c) usePhoneVideo.setState({ call: { ...c, ...fn(c) } });
}

function stopStream(s?: MediaStream) {
  s?.getTracks().forEach((t) => t.stop());
}

/** Opens the camera and this side's connection of the call. */
async function openCallMedia(callId: string) {
  const c = usePhoneVideo.getState().call;
  if (!c || c.callId !== callId || !sock || c.peer) return;
  const peer = new VideoPeer(sock, callId);
  peer.onChange = () => set(() => ({}));
  set(() => ({ peer }));
  let local: MediaStream | undefined = c.local;
  if (!local) {
    try {
      local = await openCamera(c.resolution, c.facing);
    } catch {
      set(() => ({ localFailed: true }));
    }
  }
  if (usePhoneVideo.getState().call?.callId !== callId) {
    stopStream(local);
    peer.close();
    return;
  }
  set(() => ({ local }));
  await peer.start(local).catch(() => set(() => ({ localFailed: true })));
}

function endCall(status: number) {
  const c = usePhoneVideo.getState().call;
  if (!c) return;
  c.peer?.close();
  stopStream(c.local);
  usePhoneVideo.setState({ call: { ...c, state: 'ended', status, peer: undefined, local: undefined } });
}

/** Calls the dispatch desk (every online dispatcher rings). */
export async function callDesk(): Promise<void> {
  const cur = usePhoneVideo.getState().call;
  if (!sock || (cur && cur.state !== 'ended')) return;
  try {
    const r = await sock.request<{ callId: string; resolution: string }>('video.invite', { codecs: browserCodecs(), resolution: 'VGA' });
    usePhoneVideo.setState({
      call: { callId: r.callId, name: '', state: 'trying', status: 100, resolution: r.resolution, outgoing: true, facing: 'user' },
    });
  } catch (e) {
    notify('video.refused', { code: codeOf(e) });
  }
}

export async function answer(): Promise<void> {
  const c = usePhoneVideo.getState().call;
  if (!c || c.state !== 'incoming' || !sock) return;
  set(() => ({ state: 'answered', status: 200 }));
  try {
    await sock.request('video.status', { callId: c.callId, status: 200, codecs: browserCodecs() });
    await openCallMedia(c.callId);
  } catch (e) {
    notify('video.refused', { code: codeOf(e) });
    endCall(500);
  }
}

export function decline(): void {
  const c = usePhoneVideo.getState().call;
  if (!c || !sock) return;
  void sock.request('video.status', { callId: c.callId, status: 603 }).catch(() => {});
  endCall(603);
}

/** Hangs up whatever the state (bye_myself), or closes the ended call's screen. */
export function hangUp(): void {
  const c = usePhoneVideo.getState().call;
  if (!c) return;
  if (c.state === 'ended') {
    usePhoneVideo.setState({ call: undefined });
    return;
  }
  void sock?.request('video.byeMyself', { callId: c.callId }).catch(() => {});
}

/** Switches between the front and the back camera during the call. */
export async function switchCamera(): Promise<void> {
  const c = usePhoneVideo.getState().call;
  if (!c?.peer) return;
  const facing = c.facing === 'user' ? 'environment' : 'user';
  try {
    const next = await openCamera(c.resolution, facing);
    await c.peer.setLocal(next);
    stopStream(c.local);
    set(() => ({ local: next, facing, localFailed: false }));
  } catch {
    notify('video.noCamera');
  }
}

export function resetPhoneVideo(): void {
  const c = usePhoneVideo.getState().call;
  c?.peer?.close();
  stopStream(c?.local);
  usePhoneVideo.setState({ call: undefined });
  for (const m of monitors.values()) {
    m.peer.close();
    stopStream(m.local);
  }
  monitors.clear();
}

interface StateEvent {
  callId: string;
  kind: string;
  state: PhoneVideoCall['state'];
  status: number;
  caller: { msId: string; name: string };
  callee?: { msId: string; name: string };
  resolution: string;
}

export function attachVideo(s: TerminalSocket, me: () => string | undefined): void {
  sock = s;
  s.on<{ callId: string; from: { msId: string; name: string }; resolution: string }>('video.invite', (e) => {
    const cur = usePhoneVideo.getState().call;
    if (cur && cur.state !== 'ended') {
      void s.request('video.status', { callId: e.data.callId, status: 486 }).catch(() => {});
      return;
    }
    usePhoneVideo.setState({
      call: { callId: e.data.callId, name: e.data.from.name || e.data.from.msId, state: 'incoming', status: 100,
        resolution: e.data.resolution, outgoing: false, facing: 'user' },
    });
    void s.request('video.status', { callId: e.data.callId, status: 180 }).catch(() => {});
    // The camera opens while it rings (the preview), so answering does not wait for it.
    const id = e.data.callId;
    openCamera(e.data.resolution, 'user').then(
      (st) => {
        const c = usePhoneVideo.getState().call;
        if (c?.callId !== id || c.state === 'ended' || c.local) st.getTracks().forEach((t) => t.stop());
        else set(() => ({ local: st }));
      },
      () => {},
    );
  });
  s.on<StateEvent>('video.state', (e) => {
    const v = e.data;
    const c = usePhoneVideo.getState().call;
    if (!c || c.callId !== v.callId || v.kind !== 'call') return;
    if (v.state === 'ended') {
      endCall(v.status);
      return;
    }
    const other = v.caller.msId === me() ? v.callee : v.caller;
    const stillRinging = c.state === 'incoming' && (v.state === 'trying' || v.state === 'ringing');
    set(() => ({ state: stillRinging ? 'incoming' : v.state, status: v.status, name: other?.name || c.name }));
    if (c.outgoing && v.state === 'answered') {
      void s.request('video.ack', { callId: v.callId }).then(() => openCallMedia(v.callId)).catch(() => {});
    }
  });
  s.on<{ callId: string; resolution: string }>('video.resolution', (e) => {
    const c = usePhoneVideo.getState().call;
    const track = (c?.callId === e.data.callId ? c.local : monitors.get(e.data.callId)?.local)?.getVideoTracks()[0];
    if (track) void applyResolution(track, e.data.resolution);
    if (c?.callId === e.data.callId) set(() => ({ resolution: e.data.resolution }));
  });
  // Monitoring: agree with a codec, then send the back camera silently (no audio, nothing shown).
  s.handle('video.monitorStart', async (d) => {
    const callId = String(d.callId ?? '');
    const asked = Array.isArray(d.codecs) ? (d.codecs as string[]) : [];
    const codec = asked.find((c) => browserCodecs().includes(c));
    if (!callId || !codec) return { code: '606', msg: 'no common codec' };
    let local: MediaStream;
    try {
      local = await openCamera(String(d.resolution ?? 'VGA'), 'environment', false);
    } catch {
      return { code: '201', msg: 'camera busy' };
    }
    const peer = new VideoPeer(s, callId);
    monitors.set(callId, { peer, local });
    setTimeout(() => void peer.start(local).catch(() => stopMonitor(callId)), 0);
    return { data: { codec } };
  });
  s.on<{ callId: string }>('video.monitorStop', (e) => stopMonitor(e.data.callId));
}

function stopMonitor(callId: string) {
  const m = monitors.get(callId);
  if (!m) return;
  monitors.delete(callId);
  m.peer.close();
  stopStream(m.local);
}

/** After a reconnect: the server ended the sessions the old connection carried (101). */
export function resyncPhoneVideo(): void {
  const c = usePhoneVideo.getState().call;
  if (c && c.state !== 'ended' && c.state !== 'incoming') endCall(101); // a ringing call can still be answered
  for (const id of [...monitors.keys()]) stopMonitor(id);
}

/** The phone is being monitored now (for tests). */
export const monitoring = () => monitors.size;
