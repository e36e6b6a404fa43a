// The console's voice engine: one per window, on the window's live socket. Child windows (the "-child" routes
// opened with window.open) talk through their opener's engine, so one console has one PeerConnection and one
// audio output however many windows it opens.
import { live, onResync, useLiveStatus } from '../socket/live';
import { VoiceEngine } from './engine';
import type { PriorityMode } from './protocol';
import { useSession } from '../session';
import { useSettings, type AudioPriority } from '../settings';

/** The settings' audio playback priority → the server's `voice.priority` mode (docs/voice.md §4). */
export function priorityMode(p: AudioPriority | string): PriorityMode {
  switch (p) {
    case 'latest':
      return 'latest';
    case 'first':
      return 'first';
    case 'ownGroup':
      return 'ptt';
    case 'dispatcherFirst':
      return 'dispatcher';
    default:
      return 'first';
  }
}

let engine: VoiceEngine | undefined;

export function consoleVoice(): VoiceEngine {
  engine ??= new VoiceEngine(live(), { me: () => useSession.getState().session?.userInfo.msId, followOwnCalls: true });
  return engine;
}

/** The engine a PTT key in this window drives: the opener's when this is a child window of a console. */
export function pttEngine(): VoiceEngine {
  try {
    const opened = window.opener as Window | null;
    if (opened && opened !== window && opened.tenfourVoice) return opened.tenfourVoice;
  } catch {
    /* another origin */
  }
  return consoleVoice();
}

let running: (() => void) | undefined;

/** Starts the engine once the socket is online, and keeps it in step with the settings and reconnects. */
export function startConsoleVoice(): () => void {
  if (running) return running;
  const e = consoleVoice();
  window.tenfourVoice = e;
  const applySettings = () => {
    const s = useSettings.getState();
    e.setVolume(s.volume);
    e.setMuted(s.muteStatus);
  };
  const sendPriority = () => void e.priority(priorityMode(useSettings.getState().audioPriority)).catch(() => {});
  applySettings();
  const begin = () => {
    e.start();
    sendPriority();
    void e.monitorList();
  };
  if (useLiveStatus.getState().status === 'online') begin();
  const offStatus = useLiveStatus.subscribe((s, prev) => {
    if (s.status === 'online' && prev.status !== 'online' && prev.status !== 'reconnecting') begin();
  });
  const offSettings = useSettings.subscribe((s, prev) => {
    if (s.volume !== prev.volume || s.muteStatus !== prev.muteStatus) applySettings();
    if (s.audioPriority !== prev.audioPriority) sendPriority();
  });
  const offResync = onResync(() => {
    e.resync();
    sendPriority();
    void e.monitorList();
  });
  running = () => {
    offStatus();
    offSettings();
    offResync();
    e.stop();
    if (window.tenfourVoice === e) delete window.tenfourVoice;
    engine = undefined;
    running = undefined;
  };
  return running;
}
