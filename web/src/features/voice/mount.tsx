// How the app shell mounts voice: the dock (PTT, call panel, incoming calls) in the main window, and the PTT key in
// child windows (which talk through their opener's engine, see console.ts). Both load lazily, off the entry chunk.
import { lazy, Suspense } from 'react';

const VoiceDock = lazy(() => import('./components/VoiceDock'));
const ChildVoice = lazy(() => import('./components/ChildVoice'));

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
