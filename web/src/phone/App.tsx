// The phone app: the sign-in form, or the terminal — the talk group, the dispatcher's banners (blocked, SOS,
// calls, lone-worker check), who talks, the PTT button, SOS and the location line, with the group, patrol, inbox
// and menu sheets. Each part keeps its own state and actions in its folder (session, ptt, sos, location, inbox).
// calls, lone-worker check), who talks, the PTT button, SOS and the location line, with the group, inbox and menu
// sheets, and the job tickets. Each part keeps its own state and actions in its folder (session, ptt, sos, location,
// inbox, job).
import { useEffect, useState } from 'react';
import { onFirstGesture } from '../shared/voice/keys';
import { t, useLanguage } from './i18n';
import { Inbox, InboxButton } from './inbox/Inbox';
import { JobsButton, JobsSheet } from './job/Jobs';
import { BusSheet } from './bus/Bus';
import { LocationLine } from './location/LocationLine';
import { Calls } from './ptt/Calls';
import { GroupBar, GroupSheet } from './ptt/Groups';
import { Blocked, PttPad, TalkArea } from './ptt/Talk';
import { PatrolButton, PatrolSheet } from './patrol/Patrol';
import { Login } from './session/Login';
import { MenuSheet } from './session/Menu';
import { phoneEngine, useSession } from './session/store';
import { useAutoSignIn } from './session/useAutoSignIn';
import { LoneWork, SosBanner, SosButton } from './sos/Sos';
import { NoticeToast } from './ui/Notice';
import { VideoCall, VideoCallButton } from './video/VideoCall';
import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { HeaderButton } from './ui/HeaderButton';

export function App() {
  useLanguage();
  const phase = useSession((s) => s.phase);
  const booting = useAutoSignIn();
  if (booting && phase !== 'ready') return <div className="p-boot" data-testid="phone-boot" />;
  return phase === 'ready' ? <Main /> : <Login />;
}

function Main() {
  const status = useSession((s) => s.status);
  const uid = useSession((s) => s.uid);
  const [sheet, setSheet] = useState<'groups' | 'inbox' | 'jobs' | 'bus' | 'menu' | 'patrol' | null>(null);
  const close = () => setSheet(null);

  useEffect(() => onFirstGesture(window, () => phoneEngine()?.unlock()), []);

  return (
    <div className="p-main" data-testid="phone-main" data-status={status} data-uid={uid}>
      <header className="p-top">
        <span className={`p-dot p-dot-${status}`} title={t(`status.${status}`)} data-testid="phone-status" data-status={status} />
        <span className="p-top-title">{uid}</span>
        <PatrolButton onOpen={() => setSheet('patrol')} />
        <VideoCallButton />
        <JobsButton onOpen={() => setSheet('jobs')} />
        <InboxButton onOpen={() => setSheet('inbox')} />
        <HeaderButton icon={MenuOutlined} label={t('menu.title')} onClick={() => setSheet('menu')} testid="phone-menu-button" />
      </header>
      <GroupBar onOpen={() => setSheet('groups')} />
      <Blocked />
      <SosBanner />
      <Calls />
      <VideoCall />
      <LoneWork />
      <NoticeToast />
      <TalkArea />
      <PttPad />
      <footer className="p-bottom">
        <SosButton />
        <LocationLine />
      </footer>
      {sheet === 'groups' && <GroupSheet onClose={close} />}
      {sheet === 'inbox' && <Inbox onClose={close} />}
      {sheet === 'patrol' && <PatrolSheet onClose={close} />}
      {sheet === 'jobs' && <JobsSheet onClose={close} />}
      {sheet === 'menu' && <MenuSheet onClose={close} onBus={() => setSheet('bus')} />}
      {sheet === 'bus' && <BusSheet onClose={close} />}
    </div>
  );
}
