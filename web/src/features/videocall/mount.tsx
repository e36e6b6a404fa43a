// How the app shell mounts video calls: the window of the calls and monitorings of this console (and the calls
// ringing here), loaded lazily off the entry chunk.
import { lazy, Suspense } from 'react';

const VideoCallWindow = lazy(() => import('./components/VideoCallWindow'));

export function VideoCallMount() {
  return (
    <Suspense fallback={null}>
      <VideoCallWindow />
    </Suspense>
  );
}
