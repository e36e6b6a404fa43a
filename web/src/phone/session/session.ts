// Signing in and out. A sign-in opens the terminal socket (docs/terminal-protocol.md), lets every part register
// the server requests and events it answers, and once logged in starts the voice engine and the reports; every
// login after that (a reconnect) resyncs voice, reloads the groups, sends the positions kept offline and an SOS
// raised offline. A refusal or a sign-out ends the link and resets every part.
import { resetInbox, attachInbox, loadInbox } from '../inbox/inbox';
import { attachJobs, loadJobs, resetJobs } from '../job/jobs';
import { flushPunches, loadPunches, resetPunches } from '../bus/bus';
import { resetLocation, setGpsInterval } from '../location/location';
import { attachPtt, loadGroups, resetPtt } from '../ptt/ptt';
import { codeOf, TerminalSocket, termSocketUrl } from '../socket';
import { attachPatrol, loadOrders, resetPatrol } from '../patrol/patrol';
import { attachLoneWork, resetLoneWork } from '../sos/lonework';
import { attachSos, resendSos, resetSos } from '../sos/sos';
import { attachVideo, resetPhoneVideo, resyncPhoneVideo } from '../video/video';
import { forgetAccount, forgetPassword, keepAccount } from './account';
import { PhoneLink } from './link';
import { useSession, type SessionState } from './store';

export async function signIn(uid: string, password: string, remember = true): Promise<boolean> {
  useSession.setState({ phase: 'connecting', loginError: undefined, uid });
  const s = new TerminalSocket({
    url: termSocketUrl(),
    uid,
    auth: password,
    onStatus: (status) => useSession.setState({ status }),
    onLogin: (_r, again) => {
      if (again) void afterLogin(true);
    },
    onRejected: (code) => {
      if (useSession.getState().phase !== 'ready') return;
      end({ loginError: code === '7' ? 'replaced' : code, uid });
      if (code !== '7') forgetAccount();
    },
  });
  attach(s);
  try {
    await s.start();
  } catch (e) {
    s.stop();
    const code = codeOf(e);
    useSession.setState({ phase: 'login', loginError: code === '503' || code === '4' ? 'network' : code });
    return false;
  }
  const link = new PhoneLink(s, uid);
  link.startVoice();
  loadInbox(uid);
  loadPunches(uid);
  useSession.setState({ phase: 'ready', link });
  await keepAccount(uid, password, remember);
  void afterLogin(false);
  link.startReports();
  return true;
}

export function signOut(): void {
  end({});
  forgetPassword();
}

/** The page came back to the foreground or the network came back: reconnect now instead of after the backoff. */
export function wake(): void {
  useSession.getState().link?.sock.kick();
}

/** What each part answers of the server, registered before the login (the server may ask right after it). */
function attach(s: TerminalSocket) {
  attachPtt(s);
  attachInbox(s);
  attachSos(s);
  attachVideo(s, () => useSession.getState().uid);
  attachLoneWork(s);
  attachPatrol(s);
  // The customer's voice-encryption key, at login and on every rotation; "" means none (ADR 0021).
  s.on<{ secretKey?: string }>('key.changed', (e) => useSession.setState({ secretKey: e.data.secretKey || undefined }));
  attachJobs(s);
  s.handle('param.set', (d) => {
    const seconds = (d.seconds ?? {}) as Record<string, number>;
    if (seconds.gpsInterval > 0) setGpsInterval(seconds.gpsInterval);
    if (seconds.heartbeat > 0) s.setHeartbeat(seconds.heartbeat);
    if (seconds.statusInterval > 0) useSession.getState().link?.battery.schedule(seconds.statusInterval);
  });
}

async function afterLogin(again: boolean) {
  const link = useSession.getState().link;
  if (again) {
    link?.resync();
    resyncPhoneVideo();
  }
  await loadGroups();
  void loadJobs();
  void flushPunches();
  link?.location.flush();
  resendSos();
  void loadOrders();
}

function end(patch: Partial<SessionState>) {
  useSession.getState().link?.end();
  useSession.setState({ phase: 'login', status: 'idle', link: undefined, secretKey: undefined, ...patch });
  resetPtt();
  resetPhoneVideo();
  resetLocation();
  resetInbox();
  resetSos();
  resetLoneWork();
  resetPatrol();
  resetJobs();
  resetPunches();
}
