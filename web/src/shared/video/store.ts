// The console's video sessions (docs/video.md): the calls this dispatcher is a party of, the terminals it monitors and
// the calls ringing here. One store, fed by the video.* events of the window's live socket; the video call window
// (features/videocall) shows it, the terminal info panel and the map card start calls and monitoring through it.
import { create } from 'zustand';
import { live, onResync } from '../socket/live';
import { useSession } from '../session';
import { browserCodecs, openCamera, VideoPeer, type ResolutionName } from './media';

export interface VideoPerson {
  msId: string;
  name: string;
  type: string;
}

/** A session as the server shows it (video.state, video.list). */
export interface VideoView {
  callId: string;
  kind: 'call' | 'monitor';
  state: 'trying' | 'ringing' | 'answered' | 'media' | 'connected' | 'ended';
  status: number;
  caller: VideoPerson;
  callee?: VideoPerson;
  codec?: string;
  resolution: string;
  started: number;
  connected?: number;
  maxDurationMs?: number;
  by?: string;
}

export interface VideoSession {
  view: VideoView;
  /** The terminal on the other side. */
  peerName: string;
  peerId: string;
  media?: VideoPeer;
  local?: MediaStream;
  /** 800: this console's camera (or microphone) could not be opened; the call goes on receiving. */
  localFailed?: boolean;
  /** A refused start: the code (the window shows it, then the user dismisses it). */
  refused?: string;
  /** The camera being opened while the call rings (the preview), so answering does not wait for it. */
  preview?: Promise<MediaStream | undefined>;
  /** A monitoring shown on a surveillance tile (not in the video call window). */
  tile?: boolean;
}

export interface VideoInvite {
  callId: string;
  from: VideoPerson;
  resolution: string;
}

interface VideoState {
  sessions: Record<string, VideoSession>;
  invites: VideoInvite[];
  /** The resolution asked of terminals' cameras (spec §9). */
  resolution: ResolutionName;
}

export const useVideo = create<VideoState>(() => ({ sessions: {}, invites: [], resolution: '720p' }));

/** The console's state name of spec §4 for a session. */
export type UiState = 'connecting' | 'awaiting' | 'connected' | 'declined' | 'canceled' | 'busy' | 'disconnected' | 'timedOut';

export function uiState(v: Pick<VideoView, 'state' | 'status'>): UiState {
  switch (v.state) {
    case 'trying':
    case 'media':
      return 'connecting';
    case 'ringing':
    case 'answered':
      return 'awaiting';
    case 'connected':
      return 'connected';
  }
  switch (v.status) {
    case 603:
      return 'declined';
    case 487:
      return 'canceled';
    case 486:
    case 201:
      return 'busy';
    case 408:
      return 'timedOut';
  }
  return 'disconnected';
}

const me = () => useSession.getState().session?.userInfo.msId ?? '';

function patch(callId: string, fn: (s: VideoSession) => Partial<VideoSession>) {
  useVideo.setState((st) => {
    const cur = st.sessions[callId];
    if (!cur) return st;
    return { sessions: { ...st.sessions, [callId]: { ...cur, ...fn(cur) } } };
  });
}

function placeholder(callId: string, kind: 'call' | 'monitor', peerId: string, peerName: string, resolution: string): VideoSession {
  return {
    peerId,
    peerName,
    view: { callId, kind, state: 'trying', status: 100, caller: { msId: me(), name: '', type: '20' }, resolution, started: Date.now() },
  };
}

/** Opens this side's media: the camera (800 if it fails: receive only) and the connection. */
async function openMedia(callId: string, withCamera: boolean) {
  const s = useVideo.getState().sessions[callId];
  if (!s || s.media) return;
  const peer = new VideoPeer(live(), callId);
  peer.onChange = () => patch(callId, () => ({}));
  patch(callId, () => ({ media: peer }));
  let local: MediaStream | undefined = s.local ?? (await s.preview);
  if (withCamera && !local) {
    try {
      local = await openCamera('VGA', 'user');
    } catch {
      try {
        local = await navigator.mediaDevices.getUserMedia({ audio: true });
      } catch {
        local = undefined;
      }
      patch(callId, () => ({ localFailed: true }));
    }
  }
  if (!useVideo.getState().sessions[callId] || useVideo.getState().sessions[callId]?.view.state === 'ended') {
    local?.getTracks().forEach((t) => t.stop());
    peer.close();
    return;
  }
  patch(callId, () => ({ local }));
  await peer.start(local).catch(() => patch(callId, () => ({ localFailed: true })));
}

function closeMedia(s: VideoSession) {
  s.media?.close();
  s.local?.getTracks().forEach((t) => t.stop());
}

/** Calls a terminal. */
export async function startVideoCall(msId: string, name: string): Promise<void> {
  const resolution = useVideo.getState().resolution;
  try {
    const r = await live().request<{ callId: string }>('video.invite', { msId, resolution, codecs: browserCodecs() });
    useVideo.setState((st) => ({
      sessions: { ...st.sessions, [r.callId]: st.sessions[r.callId] ?? placeholder(r.callId, 'call', msId, name, resolution) },
    }));
    // The camera opens while the terminal rings: the preview shows, and the answer does not wait for it.
    const preview = openCamera('VGA', 'user').then(
      (st) => {
        const cur = useVideo.getState().sessions[r.callId];
        if (!cur || cur.view.state === 'ended') {
          st.getTracks().forEach((t) => t.stop());
          return undefined;
        }
        patch(r.callId, () => ({ local: st }));
        return st;
      },
      () => undefined,
    );
    patch(r.callId, () => ({ preview }));
  } catch (e) {
    const id = `refused-${Date.now()}`;
    const s = placeholder(id, 'call', msId, name, resolution);
    s.refused = (e as { code?: string }).code ?? 'failed';
    s.view = { ...s.view, state: 'ended', status: Number(s.refused) || 500 };
    useVideo.setState((st) => ({ sessions: { ...st.sessions, [id]: s } }));
  }
}

/**
 * Opens a terminal's camera (video monitoring); tile: shown on a surveillance tile instead of the video call window.
 * Returns the session's id (a refused start is a session too: ended, with the code in refused).
 */
export async function startVideoMonitor(msId: string, name: string, opts: { tile?: boolean } = {}): Promise<string> {
  const resolution = useVideo.getState().resolution;
  const tile = opts.tile || undefined;
  try {
    const r = await live().request<{ callId: string; status: number }>('video.monitorStart', { msId, resolution, codecs: browserCodecs() });
    useVideo.setState((st) => {
      const s = st.sessions[r.callId] ?? placeholder(r.callId, 'monitor', msId, name, resolution);
      return { sessions: { ...st.sessions, [r.callId]: { ...s, tile, view: { ...s.view, state: r.status === 202 ? 'connected' : 'media', status: r.status } } } };
    });
    void openMedia(r.callId, false);
    return r.callId;
  } catch (e) {
    const id = `refused-${Date.now()}-${msId}`;
    const s = placeholder(id, 'monitor', msId, name, resolution);
    s.refused = (e as { code?: string }).code ?? 'failed';
    s.tile = tile;
    s.view = { ...s.view, state: 'ended', status: Number(s.refused) || 500 };
    useVideo.setState((st) => ({ sessions: { ...st.sessions, [id]: s } }));
    return id;
  }
}

/** Answers a terminal's call ringing here. */
export async function answerVideo(callId: string): Promise<void> {
  const inv = useVideo.getState().invites.find((i) => i.callId === callId);
  useVideo.setState((st) => ({ invites: st.invites.filter((i) => i.callId !== callId) }));
  if (!inv) return;
  const s = placeholder(callId, 'call', inv.from.msId, inv.from.name, inv.resolution);
  s.view = { ...s.view, caller: inv.from, state: 'answered', status: 200 };
  useVideo.setState((st) => ({ sessions: { ...st.sessions, [callId]: s } }));
  try {
    await live().request('video.status', { callId, status: 200, codecs: browserCodecs() });
    await openMedia(callId, true);
  } catch (e) {
    patch(callId, () => ({ refused: (e as { code?: string }).code ?? 'failed', view: { ...s.view, state: 'ended', status: 500 } }));
  }
}

export function declineVideo(callId: string): void {
  useVideo.setState((st) => ({ invites: st.invites.filter((i) => i.callId !== callId) }));
  void live().request('video.status', { callId, status: 603 }).catch(() => {});
}

/** Hangs up: cancel before the answer, bye after, stop watching a monitored terminal. */
export function hangUpVideo(callId: string): void {
  const s = useVideo.getState().sessions[callId];
  if (!s) return;
  if (s.view.state === 'ended') {
    closeMedia(s);
    useVideo.setState((st) => {
      const next = { ...st.sessions };
      delete next[callId];
      return { sessions: next };
    });
    return;
  }
  const verb = s.view.kind === 'monitor' ? 'video.monitorStop' : 'video.byeMyself';
  void live().request(verb, { callId }).catch(() => {});
}

/** Stops a session (as hangUpVideo) and drops it from the store at once (a surveillance tile that lets go of it). */
export function forgetVideo(callId: string): void {
  const s = useVideo.getState().sessions[callId];
  if (!s) return;
  if (s.view.state !== 'ended') hangUpVideo(callId);
  closeMedia(s);
  useVideo.setState((st) => {
    const next = { ...st.sessions };
    delete next[callId];
    return { sessions: next };
  });
}

export function setVideoResolution(callId: string, resolution: ResolutionName): void {
  useVideo.setState({ resolution });
  void live().request('video.resolution', { callId, resolution }).catch(() => {});
}

function applyState(v: VideoView) {
  const st = useVideo.getState();
  const s = st.sessions[v.callId];
  const mine = v.caller?.msId === me() || v.callee?.msId === me();
  if (!s) {
    if (v.kind === 'call' && mine && v.state !== 'ended') {
      const other = v.caller.msId === me() ? v.callee : v.caller;
      useVideo.setState((x) => ({
        sessions: { ...x.sessions, [v.callId]: { ...placeholder(v.callId, 'call', other?.msId ?? '', other?.name ?? '', v.resolution), view: v } },
      }));
    }
    if (v.state === 'ended' || (v.callee && v.callee.msId !== me())) {
      useVideo.setState((x) => ({ invites: x.invites.filter((i) => i.callId !== v.callId) }));
    }
    return;
  }
  const peerName = s.peerName || (v.caller.msId === me() ? v.callee?.name : v.caller.name) || s.peerName;
  patch(v.callId, () => ({ view: v, peerName }));
  if (v.kind === 'call' && v.caller.msId === me() && v.state === 'answered') {
    // The codec is fixed: acknowledge and connect at once (the server takes offers from the answer on).
    void live().request('video.ack', { callId: v.callId }).catch(() => {});
    void openMedia(v.callId, true);
  }
  if (v.state === 'ended') {
    closeMedia(s);
    void s.preview?.then((st) => st?.getTracks().forEach((t) => t.stop()));
  }
}

let attached = false;

/** Subscribes the store to the live socket (once per window). */
export function startConsoleVideo(): void {
  if (attached) return;
  attached = true;
  const sock = live();
  sock.on<VideoView>('video.state', (e) => applyState(e.data));
  sock.on<VideoInvite & { status: number }>('video.invite', (e) => {
    useVideo.setState((st) => ({ invites: [...st.invites.filter((i) => i.callId !== e.data.callId), e.data] }));
    void sock.request('video.status', { callId: e.data.callId, status: 180 }).catch(() => {});
  });
  sock.on<{ callId: string }>('video.answered', (e) =>
    useVideo.setState((st) => ({ invites: st.invites.filter((i) => i.callId !== e.data.callId) })),
  );
  // A reconnect: the server ended what the old connection carried (101); show the sessions it no longer has as ended.
  onResync(() => {
    void sock
      .request<{ list: VideoView[] }>('video.list', {})
      .then(({ list }) => {
        const open = new Set(list.map((v) => v.callId));
        for (const s of Object.values(useVideo.getState().sessions)) {
          if (s.view.state !== 'ended' && !s.refused && !open.has(s.view.callId)) applyState({ ...s.view, state: 'ended', status: 101 });
        }
        useVideo.setState((st) => ({ invites: st.invites.filter((i) => open.has(i.callId)) }));
      })
      .catch(() => {});
  });
}

/** Whether a terminal type can be monitored (apps and cameras) and can take a video call (apps). */
export const cameraCapable = (type: string) => type === '10' || type === 'camera';
export const callCapable = (type: string) => type === '10';
