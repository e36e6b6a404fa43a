import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { Spin } from 'antd';
import { hasToken } from '../shared/session';
import { VoiceChildMount } from '../features/voice/mount';
import { startLive } from '../shared/socket/live';
import { useDirectoryFeed } from '../shared/directory/useLiveDirectory';
import { AlarmInterrupt } from '../features/alarm/components/AlarmInterrupt';

/** Extra-window copies (spec §2 "-child" routes): the screen alone, with its own live socket. */
export function ChildFrame() {
  useEffect(() => {
    if (hasToken()) startLive().catch(() => {});
  }, []);
  return (
    <div className="child-frame" data-testid="child-frame">
      <Suspense fallback={<Spin />}>
        <Outlet />
      </Suspense>
      {hasToken() && <DirectoryFeed />}
      <VoiceChildMount />
      <AlarmInterrupt child />
    </div>
  );
}

function DirectoryFeed() {
  useDirectoryFeed();
  return null;
}
