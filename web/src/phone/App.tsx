import { useEffect, useMemo, useRef, useState } from 'react';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../i18n/languages';
import { bindPttKey, onFirstGesture } from '../shared/voice/keys';
import { fmtDuration, type FloorView } from '../shared/voice/protocol';
import { startRing } from '../shared/voice/ring';
import { useVoice } from '../shared/voice/store';
import { language, setLanguage, t, useLanguage } from './i18n';
import {
  cancelSos,
  checkIn,
  markRead,
  phoneEngine,
  raiseSos,
  sendMessage,
  setLocationWanted,
  signIn,
  signOut,
  storedAccount,
  switchGroup,
  usePhone,
  wake,
} from './phone';

/** Keys that talk while held (keyboards, many Bluetooth PTT buttons). */
const HOLD_KEYS = ['Space', 'F8'];
/** Headset buttons send a key press without a usable release: press once to talk, once to stop. */
const TOGGLE_KEYS = ['MediaPlayPause', 'HeadsetHook'];
const SOS_HOLD_MS = 2000;

function useTick(active: boolean, ms = 500): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [active, ms]);
  return now;
}

export function App() {
  useLanguage();
  const phase = usePhone((s) => s.phase);
  const [booting, setBooting] = useState(true);

  useEffect(() => {
    let live = true;
    void storedAccount().then(async (a) => {
      if (a?.password && live) await signIn(a.uid, a.password, true);
      if (live) setBooting(false);
    });
    const onVisible = () => document.visibilityState === 'visible' && wake();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', wake);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', wake);
    };
  }, []);

  if (booting && phase !== 'ready') return <div className="p-boot" data-testid="phone-boot" />;
  return phase === 'ready' ? <Main /> : <Login />;
}

function LanguagePicker() {
  const lang = useLanguage();
  return (
    <select className="p-select" value={lang} onChange={(e) => void setLanguage(e.target.value as Language)} aria-label={t('menu.language')} data-testid="phone-language">
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}

function Login() {
  const phase = usePhone((s) => s.phase);
  const error = usePhone((s) => s.loginError);
  const lastUid = usePhone((s) => s.uid);
  const [uid, setUid] = useState(lastUid ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);

  useEffect(() => {
    if (!uid) void storedAccount().then((a) => a && setUid(a.uid));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const busy = phase === 'connecting';
  const errorText = error ? (t(`loginError.${error}`) !== `loginError.${error}` ? t(`loginError.${error}`) : t('loginError.other', { code: error })) : '';
  return (
    <div className="p-login" data-testid="phone-login">
      <div className="p-login-card">
        <div className="p-logo" aria-hidden>
          <svg viewBox="0 0 48 48" width="56" height="56">
            <rect x="14" y="4" width="20" height="40" rx="6" fill="currentColor" opacity=".9" />
            <rect x="18" y="10" width="12" height="10" rx="2" fill="#0b1a2a" />
            <circle cx="24" cy="31" r="5" fill="#0b1a2a" />
          </svg>
        </div>
        <h1>{t('app.title')}</h1>
        <p className="p-muted">{t('login.title')}</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (uid && password && !busy) void signIn(uid.trim(), password, remember);
          }}
        >
          <label className="p-field">
            <span>{t('login.account')}</span>
            <input inputMode="numeric" autoComplete="username" value={uid} onChange={(e) => setUid(e.target.value)} data-testid="phone-account" required />
          </label>
          <label className="p-field">
            <span>{t('login.password')}</span>
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="phone-password" required />
          </label>
          <label className="p-check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <span>{t('login.remember')}</span>
          </label>
          {errorText && (
            <div className="p-error" role="alert" data-testid="phone-login-error" data-code={error}>
              {errorText}
            </div>
          )}
          <button className="p-primary" type="submit" disabled={busy} data-testid="phone-submit">
            {busy ? t('login.connecting') : t('login.submit')}
          </button>
        </form>
        <p className="p-muted p-small">{t('login.hint')}</p>
        <LanguagePicker />
      </div>
    </div>
  );
}

function Main() {
  const status = usePhone((s) => s.status);
  const uid = usePhone((s) => s.uid);
  const inbox = usePhone((s) => s.inbox);
  const callSet = usePhone((s) => s.callSet);
  const notice = usePhone((s) => s.notice);
  const [sheet, setSheet] = useState<'groups' | 'inbox' | 'menu' | null>(null);
  const unread = inbox.filter((m) => !m.read && !m.mine).length;
  const now = useTick(!!notice, 1000);
  const showNotice = notice && now - notice.at < 5000;

  useEffect(() => onFirstGesture(window, () => phoneEngine()?.unlock()), []);

  return (
    <div className="p-main" data-testid="phone-main" data-status={status} data-uid={uid}>
      <header className="p-top">
        <span className={`p-dot p-dot-${status}`} title={t(`status.${status}`)} data-testid="phone-status" data-status={status} />
        <span className="p-top-title">{uid}</span>
        <button className="p-icon" onClick={() => (setSheet('inbox'), markRead())} aria-label={t('messages.title')} data-testid="phone-inbox-button">
          ✉{unread > 0 && <span className="p-badge" data-testid="phone-unread">{unread}</span>}
        </button>
        <button className="p-icon" onClick={() => setSheet('menu')} aria-label={t('menu.title')} data-testid="phone-menu-button">
          ☰
        </button>
      </header>
      <GroupBar onOpen={() => setSheet('groups')} />
      {callSet !== 8 && (
        <div className="p-banner p-banner-bad" data-testid="phone-blocked">
          {t(`blocked.${callSet === 0 ? 0 : 1}`)}
        </div>
      )}
      <SosBanner />
      <Calls />
      <LoneWork />
      {showNotice && (
        <div className="p-toast" role="status" data-testid="phone-notice" data-key={notice.key}>
          {t(notice.key, notice.vars)}
        </div>
      )}
      <TalkArea />
      <PttPad disabled={callSet !== 8} />
      <footer className="p-bottom">
        <SosButton />
        <LocationLine />
      </footer>
      {sheet === 'groups' && <GroupSheet onClose={() => setSheet(null)} />}
      {sheet === 'inbox' && <Inbox onClose={() => setSheet(null)} />}
      {sheet === 'menu' && <MenuSheet onClose={() => setSheet(null)} />}
    </div>
  );
}

function GroupBar({ onOpen }: { onOpen: () => void }) {
  const groups = usePhone((s) => s.groups);
  const ptt = usePhone((s) => s.pttGroup);
  const name = groups.find((g) => g.gid === ptt)?.name ?? (ptt ? ptt : t('groups.none'));
  return (
    <button className="p-groupbar" onClick={onOpen} data-testid="phone-group" data-gid={ptt}>
      <span className="p-muted">{t('groups.title')}</span>
      <strong>{name}</strong>
      <span aria-hidden>▾</span>
    </button>
  );
}

function Sheet({ title, onClose, children, testid }: { title: string; onClose: () => void; children: React.ReactNode; testid: string }) {
  return (
    <div className="p-sheet-wrap" onClick={onClose}>
      <div className="p-sheet" onClick={(e) => e.stopPropagation()} data-testid={testid} role="dialog" aria-label={title}>
        <div className="p-sheet-head">
          <strong>{title}</strong>
          <button className="p-icon" onClick={onClose} aria-label={t('messages.close')}>
            ✕
          </button>
        </div>
        <div className="p-sheet-body">{children}</div>
      </div>
    </div>
  );
}

function GroupSheet({ onClose }: { onClose: () => void }) {
  const groups = usePhone((s) => s.groups);
  const ptt = usePhone((s) => s.pttGroup);
  return (
    <Sheet title={t('groups.choose')} onClose={onClose} testid="phone-group-sheet">
      {groups.map((g) => (
        <button
          key={g.gid}
          className={`p-row${g.gid === ptt ? ' p-row-on' : ''}`}
          onClick={() => void switchGroup(g.gid).then(onClose)}
          data-testid="phone-group-option"
          data-gid={g.gid}
        >
          <span>{g.name}</span>
          {g.kind === 'temp' && <span className="p-muted p-small">{t('groups.temp')}</span>}
          {g.gid === ptt && <span aria-hidden>✓</span>}
        </button>
      ))}
    </Sheet>
  );
}

function MenuSheet({ onClose }: { onClose: () => void }) {
  const wanted = usePhone((s) => s.location.wanted);
  const [install, setInstall] = useState<(Event & { prompt: () => Promise<void> }) | null>(installPrompt);
  useEffect(() => {
    const fn = () => setInstall(installPrompt);
    window.addEventListener('tenfour-installable', fn);
    return () => window.removeEventListener('tenfour-installable', fn);
  }, []);
  return (
    <Sheet title={t('menu.title')} onClose={onClose} testid="phone-menu">
      <label className="p-row">
        <span>{t('location.title')}</span>
        <input type="checkbox" checked={wanted} onChange={(e) => setLocationWanted(e.target.checked)} data-testid="phone-location-toggle" />
      </label>
      <label className="p-row">
        <span>{t('menu.language')}</span>
        <LanguagePicker />
      </label>
      {install && (
        <button className="p-row" onClick={() => void install.prompt().then(() => setInstall(null))}>
          {t('menu.install')}
        </button>
      )}
      <button className="p-row p-danger" onClick={signOut} data-testid="phone-signout">
        {t('menu.signOut')}
      </button>
    </Sheet>
  );
}

function Inbox({ onClose }: { onClose: () => void }) {
  const inbox = usePhone((s) => s.inbox);
  const [text, setText] = useState('');
  const lang = language();
  const fmt = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }), [lang]);
  return (
    <Sheet title={t('messages.title')} onClose={onClose} testid="phone-inbox">
      <form
        className="p-compose"
        onSubmit={(e) => {
          e.preventDefault();
          void sendMessage(text).then((ok) => ok && setText(''));
        }}
      >
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('messages.reply')} maxLength={1000} data-testid="phone-compose" />
        <button className="p-primary" type="submit" disabled={!text.trim()}>
          {t('messages.send')}
        </button>
      </form>
      {inbox.length === 0 && <p className="p-muted">{t('messages.empty')}</p>}
      {inbox.map((m) => (
        <div key={m.id} className={`p-msg${m.mine ? ' p-msg-mine' : ''}`} data-testid="phone-message" data-id={m.id}>
          <div className="p-msg-head">
            <strong>{m.mine ? t('messages.me') : m.fromName || m.from}</strong>
            {m.gid && <span className="p-muted p-small">· {t('messages.group')}</span>}
            <span className="p-muted p-small">{fmt.format(m.time)}</span>
          </div>
          <div className="p-msg-body">{m.content}</div>
          {m.file?.url && (
            <a href={m.file.url} target="_blank" rel="noreferrer">
              {m.file.name || t('messages.file')}
            </a>
          )}
        </div>
      ))}
    </Sheet>
  );
}

/** The floor to show: mine, what this phone plays now, else its talk group's. */
function useShownFloor(): FloorView | undefined {
  const floors = useVoice((s) => s.floors);
  const playing = useVoice((s) => s.playing);
  const ptt = usePhone((s) => s.pttGroup);
  if (playing?.callId && floors[playing.callId]?.talker) return floors[playing.callId];
  return Object.values(floors).find((f) => f.talker && f.gid === ptt) ?? Object.values(floors).find((f) => f.talker && f.kind !== 'group');
}

function TalkArea() {
  const ptt = useVoice((s) => s.ptt);
  const floor = useShownFloor();
  const now = useTick(ptt.phase === 'talking' || !!floor, 500);
  const uid = usePhone((s) => s.uid);
  let main: string;
  let sub = '';
  let cls = '';
  if (ptt.phase === 'talking') {
    main = t('talk.you');
    sub = fmtDuration(performance.now() - (ptt.grantAt ?? performance.now()));
    cls = 'p-talk-me';
  } else if (floor?.talker && floor.talker.msId !== uid) {
    main = t('talk.someone', { name: floor.talker.name || floor.talker.msId });
    sub = `${fmtDuration(now - (floor.since ?? now))}${floor.gName ? ' · ' + t('talk.in', { name: floor.gName }) : ''}`;
    cls = floor.emergency ? 'p-talk-sos' : 'p-talk-other';
  } else {
    main = t('talk.idle');
  }
  return (
    <div className={`p-talk ${cls}`} data-testid="phone-talker" data-talker={floor?.talker?.msId ?? ''}>
      <div className="p-talk-main">{main}</div>
      <div className="p-talk-sub">{sub}</div>
    </div>
  );
}

function PttPad({ disabled }: { disabled: boolean }) {
  const ptt = useVoice((s) => s.ptt);
  const rtc = useVoice((s) => s.rtc);
  useTick(!!ptt.error, 1000);
  const perfNow = performance.now();
  const showError = ptt.phase === 'idle' && ptt.error && perfNow - ptt.error.at < 4000;

  useEffect(
    () =>
      bindPttKey(window, {
        code: () => HOLD_KEYS,
        toggleCodes: () => TOGGLE_KEYS,
        onDown: () => usePhone.getState().callSet === 8 && phoneEngine()?.press(),
        onUp: () => phoneEngine()?.release(),
      }),
    [],
  );

  let label = t('ptt.hold');
  if (disabled) label = t('ptt.blocked');
  else if (ptt.phase === 'requesting') label = t('ptt.requesting');
  else if (ptt.phase === 'talking') label = t('ptt.talking');
  else if (ptt.phase === 'queued') label = t('ptt.queued', { position: ptt.position ?? '?' });
  else if (showError) {
    const k = `floorError.${ptt.error!.code}`;
    label = t(k) !== k ? t(k) : t('floorError.other', { code: ptt.error!.code });
  } else if (rtc !== 'connected') label = t('ptt.noVoice');

  return (
    <div className="p-ptt-wrap">
      <button
        className={`p-ptt p-ptt-${ptt.phase}${showError ? ' p-ptt-error' : ''}`}
        disabled={disabled}
        data-testid="phone-ptt"
        data-phase={ptt.phase}
        data-error={showError ? ptt.error!.code : undefined}
        data-rtc={rtc}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.currentTarget.setPointerCapture?.(e.pointerId);
          navigator.vibrate?.(30);
          phoneEngine()?.press();
        }}
        onPointerUp={() => phoneEngine()?.release()}
        onPointerCancel={() => phoneEngine()?.release()}
        onLostPointerCapture={() => phoneEngine()?.release()}
        onContextMenu={(e) => e.preventDefault()}
        aria-label={t('ptt.hold')}
      >
        <svg viewBox="0 0 24 24" width="54" height="54" aria-hidden>
          <path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2Z" />
        </svg>
        <span>{label}</span>
      </button>
    </div>
  );
}

function SosButton() {
  const sos = usePhone((s) => s.sos);
  const [holding, setHolding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const stop = () => {
    clearTimeout(timer.current);
    setHolding(false);
  };
  if (sos.state !== 'idle')
    return (
      <button className="p-sos p-sos-cancel" onClick={() => void cancelSos()} data-testid="phone-sos-cancel">
        {t('sos.cancel')}
      </button>
    );
  return (
    <button
      className={`p-sos${holding ? ' p-sos-holding' : ''}`}
      style={{ ['--sos-ms' as string]: `${SOS_HOLD_MS}ms` }}
      data-testid="phone-sos"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        setHolding(true);
        navigator.vibrate?.(50);
        timer.current = setTimeout(() => {
          setHolding(false);
          void raiseSos();
        }, SOS_HOLD_MS);
      }}
      onPointerUp={stop}
      onPointerCancel={stop}
      onLostPointerCapture={stop}
      onContextMenu={(e) => e.preventDefault()}
    >
      <strong>SOS</strong>
      <span className="p-small">{holding ? t('sos.holding') : t('sos.hold')}</span>
    </button>
  );
}

function SosBanner() {
  const sos = usePhone((s) => s.sos);
  if (sos.state === 'idle') return null;
  const text =
    sos.state === 'sending'
      ? sos.error
        ? t('sos.retry')
        : t('sos.sending')
      : sos.state === 'acked'
        ? sos.responder
          ? t('sos.acked', { name: sos.responder })
          : t('sos.ackedNobody')
        : t('sos.open');
  return (
    <div className={`p-banner ${sos.state === 'acked' ? 'p-banner-ok' : 'p-banner-sos'}`} data-testid="phone-sos-state" data-state={sos.state} data-id={sos.id ?? ''}>
      {text}
    </div>
  );
}

function Calls() {
  const invites = useVoice((s) => s.invites);
  const calls = useVoice((s) => s.calls);
  const joined = useVoice((s) => s.joined);
  const uid = usePhone((s) => s.uid);
  const engine = phoneEngine();
  const single = Object.values(calls).find((c) => c.kind === 'single' && c.state !== 'ended');
  const other = joined.find((j) => calls[j.callId]);
  const inv = invites[0];
  useEffect(() => {
    if (!inv) return;
    navigator.vibrate?.([400, 200, 400]);
    return startRing(70);
  }, [inv?.callId]); // eslint-disable-line react-hooks/exhaustive-deps
  if (inv)
    return (
      <div className="p-call p-call-in" data-testid="phone-incoming" data-call-id={inv.callId}>
        <div>{t('call.incoming', { name: inv.from.name || inv.from.msId })}</div>
        <div className="p-call-buttons">
          <button className="p-primary" onClick={() => void engine?.answer(inv.callId)} data-testid="phone-answer">
            {t('call.answer')}
          </button>
          <button className="p-secondary p-danger" onClick={() => void engine?.decline(inv.callId)} data-testid="phone-decline">
            {t('call.decline')}
          </button>
        </div>
      </div>
    );
  if (single) {
    const peer = single.parties?.find((p) => p.msId !== uid) ?? single.initiator;
    return (
      <div className="p-call" data-testid="phone-call" data-call-id={single.callId} data-state={single.state}>
        <div>{single.state === 'connected' ? t('call.with', { name: peer?.name || peer?.msId || '' }) : t('call.ringing')}</div>
        <button className="p-secondary p-danger" onClick={() => void engine?.hangUp(single.callId).catch(() => {})} data-testid="phone-hangup">
          {t('call.hangUp')}
        </button>
      </div>
    );
  }
  if (other) {
    return (
      <div className="p-call" data-testid="phone-joined" data-call-id={other.callId} data-kind={other.kind}>
        <div>{t('call.joined', { kind: t(`kind.${other.kind}`), name: other.from.name || other.from.msId })}</div>
        {other.kind !== 'all' && other.kind !== 'broadcast' && (
          <button className="p-secondary" onClick={() => void engine?.byeMyself(other.callId).catch(() => {})}>
            {t('call.leave')}
          </button>
        )}
      </div>
    );
  }
  return null;
}

function LoneWork() {
  const lw = usePhone((s) => s.lonework);
  const now = useTick(!!lw, 1000);
  if (!lw) return null;
  const left = Math.max(0, Math.round((lw.deadline - (now - lw.skewMs)) / 1000));
  return (
    <div className="p-call p-call-in" data-testid="phone-lonework">
      <div>
        <strong>{t('lonework.title')}</strong> — {t('lonework.prompt', { seconds: left })}
      </div>
      <button className="p-primary" onClick={() => void checkIn()} data-testid="phone-checkin">
        {t('lonework.fine')}
      </button>
    </div>
  );
}

function LocationLine() {
  const loc = usePhone((s) => s.location);
  const interval = usePhone((s) => s.gpsIntervalS);
  const state = loc.wanted ? loc.state : 'off';
  return (
    <div className="p-loc p-small p-muted" data-testid="phone-location" data-state={state} data-sent={loc.sent}>
      {state === 'ok' ? t('location.ok', { seconds: interval }) : t(`location.${state === 'off' ? 'off' : state}`)}
    </div>
  );
}

/** The browser's install prompt, kept for the menu's "Install app". */
let installPrompt: (Event & { prompt: () => Promise<void> }) | null = null;
window.addEventListener('beforeinstallprompt', (e) => {
  e.preventDefault();
  installPrompt = e as Event & { prompt: () => Promise<void> };
  window.dispatchEvent(new Event('tenfour-installable'));
});
