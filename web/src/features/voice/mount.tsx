// How the app shell mounts voice: the dock (PTT, call panel, incoming calls) in the main window, and the PTT key in
// child windows (which talk through their opener's engine, see console.ts). Both load lazily, off the entry chunk.
import { lazy, Suspense } from 'react';

const loadDock = () => import('./components/VoiceDock');
const VoiceDock = lazy(loadDock);
const ChildVoice = lazy(() => import('./components/ChildVoice'));

/** The dock's code, fetched ahead (the login page, while the dispatcher types). */
export function preloadVoice(): Promise<unknown> {
  return loadDock();
}

/**
 * Starts the window's voice engine before the dock mounts: it connects once the socket is online, so push-to-talk
 * is ready when the dock appears (the dock's own start then finds it running, and its unmount stops it).
 */
export function startVoice(): void {
  void import('../../shared/voice/console').then((m) => m.startConsoleVoice()).catch(() => {});
}

export function VoiceMount() {
  return (
    <Suspense fallback={null}>
      <VoiceDock />
    </Suspense>
  );
}

export function VoiceChildMount() {
  return (
    <Suspense fallback={null}>
      <ChildVoice />
    </Suspense>
  );
}
