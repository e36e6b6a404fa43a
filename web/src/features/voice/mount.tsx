// How the app shell mounts voice: the dock (PTT, call panel, incoming calls) in the main window, and the PTT key in
// child windows (which talk through their opener's engine, see console.ts). Both load lazily, off the entry chunk.
import { lazy, Suspense, useState, type ComponentType } from 'react';

/** The dock's component once its chunk is here: the shell then renders it in its first pass, not a pass later. */
let loadedDock: ComponentType | undefined;
const loadDock = () =>
  import('./components/VoiceDock').then((m) => {
    loadedDock = m.default;
    return m;
  });
const LazyDock = lazy(loadDock);
const ChildVoice = lazy(() => import('./components/ChildVoice'));

/** The dock's code, fetched ahead (the login page, while the dispatcher types). */
export function preloadVoice(): Promise<unknown> {
  return loadDock();
}

/**
 * Starts the window's voice engine before the dock mounts: it connects once the socket is online, so push-to-talk
 * is ready when the dock appears (the dock's own start then finds it running, and its unmount stops it). Resolves
 * when its media is connected (never if it fails: the boot waits for it a bounded time only).
 */
export function startVoice(): Promise<void> {
  return Promise.all([import('../../shared/voice/console'), import('../../shared/voice/store')]).then(
    ([{ startConsoleVoice }, { useVoice }]) => {
      startConsoleVoice();
      return new Promise<void>((resolve) => {
        if (useVoice.getState().rtc === 'connected') return resolve();
        const off = useVoice.subscribe((s) => {
          if (s.rtc !== 'connected') return;
          off();
          resolve();
        });
      });
    },
    () => new Promise<void>(() => {}),
  );
}

export function VoiceMount() {
  // Chosen once per mount, so the dock is never swapped (and its engine stopped) when its chunk arrives meanwhile.
  const [Dock] = useState(() => loadedDock ?? LazyDock);
  return (
    <Suspense fallback={null}>
      <Dock />
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
