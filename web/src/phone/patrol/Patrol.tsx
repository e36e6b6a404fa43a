import { useEffect, useMemo, useRef, useState } from 'react';
import { language, t } from '../i18n';
import { Sheet } from '../ui/Sheet';
import { useTick } from '../ui/useTick';
import { loadOrders, openOrders, punch, punchHere, tagValue, upcomingOrders, usePatrol, type Order } from './patrol';
import CheckCircleOutlined from '@ant-design/icons-svg/es/asn/CheckCircleOutlined';
import ClockCircleOutlined from '@ant-design/icons-svg/es/asn/ClockCircleOutlined';
import ExclamationCircleOutlined from '@ant-design/icons-svg/es/asn/ExclamationCircleOutlined';
import FlagOutlined from '@ant-design/icons-svg/es/asn/FlagOutlined';
import { HeaderButton } from '../ui/HeaderButton';
import { Icon } from '../../shared/icons/Icon';

// The browser APIs this sheet uses where they exist (not in TypeScript's DOM library yet).
interface NdefReadingEvent extends Event {
  serialNumber: string;
  message: { records: ReadonlyArray<{ recordType: string; data?: DataView | null; encoding?: string }> };
}
interface NdefReader extends EventTarget {
  scan(opts?: { signal?: AbortSignal }): Promise<void>;
}
type NdefReaderCtor = new () => NdefReader;
interface Detected {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<Detected[]>;
}
type BarcodeDetectorCtor = new (opts: { formats: string[] }) => BarcodeDetectorLike;

const nfcReader = (): NdefReaderCtor | undefined => (window as unknown as { NDEFReader?: NdefReaderCtor }).NDEFReader;
const barcodeDetector = (): BarcodeDetectorCtor | undefined =>
  (window as unknown as { BarcodeDetector?: BarcodeDetectorCtor }).BarcodeDetector;

/** The header's patrol button with the number of points still to punch in open orders. */
export function PatrolButton({ onOpen }: { onOpen: () => void }) {
  const orders = usePatrol((s) => s.orders);
  const offset = usePatrol((s) => s.offset);
  const now = useTick(true, 30_000) + offset;
  const left = openOrders(orders, now).reduce((n, o) => n + (o.total - o.punched), 0);
  return (
    <HeaderButton
      icon={FlagOutlined}
      label={t('patrol.title')}
      onClick={() => {
        onOpen();
        void loadOrders();
      }}
      testid="phone-patrol-button"
      count={left}
    />
  );
}

export function PatrolSheet({ onClose }: { onClose: () => void }) {
  const orders = usePatrol((s) => s.orders);
  const offset = usePatrol((s) => s.offset);
  const last = usePatrol((s) => s.last);
  const now = useTick(true, 5_000) + offset;
  const open = openOrders(orders, now);
  const next = upcomingOrders(orders, now).slice(0, 3);
  const lang = language();
  const time = useMemo(() => new Intl.DateTimeFormat(lang, { timeStyle: 'short' }), [lang]);
  const [code, setCode] = useState('');
  const [scanning, setScanning] = useState(false);

  return (
    <Sheet title={t('patrol.title')} onClose={onClose} testid="phone-patrol">
      <div className="p-patrol-actions">
        <button className="p-primary" onClick={() => void punchHere()} data-testid="phone-patrol-here">
          {t('patrol.here')}
        </button>
        {barcodeDetector() && navigator.mediaDevices && (
          <button className="p-row" onClick={() => setScanning((s) => !s)} data-testid="phone-patrol-scan">
            {scanning ? t('patrol.stopScan') : t('patrol.scan')}
          </button>
        )}
        <NfcButton />
      </div>
      {scanning && <QrScanner onDone={() => setScanning(false)} />}
      <form
        className="p-compose"
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) void punch('qr', { value: code.trim() }).then((l) => l && setCode(''));
        }}
      >
        <input value={code} onChange={(e) => setCode(e.target.value)} placeholder={t('patrol.code')} maxLength={64} data-testid="phone-patrol-code" />
        <button className="p-primary" type="submit" disabled={!code.trim()}>
          {t('patrol.punch')}
        </button>
      </form>
      {last && (
        <p className="p-muted p-small" data-testid="phone-patrol-last" data-state={last.state}>
          {t(`patrol.result.${last.state}`, { point: last.pointName })} · {time.format(last.time)}
        </p>
      )}
      {open.length === 0 && <p className="p-muted">{t('patrol.none')}</p>}
      {open.map((o) => (
        <OrderCard key={o.orderId} o={o} now={now} time={time} />
      ))}
      {next.length > 0 && <p className="p-muted p-small">{t('patrol.next')}</p>}
      {next.map((o) => (
        <div key={o.orderId} className="p-row p-small" data-testid="phone-patrol-next">
          {o.routeName} · {o.className} · {time.format(o.startTime)}–{time.format(o.endTime)}
        </div>
      ))}
    </Sheet>
  );
}

function OrderCard({ o, now, time }: { o: Order; now: number; time: Intl.DateTimeFormat }) {
  const late = now > o.endTime;
  return (
    <div className="p-msg" data-testid="phone-patrol-order" data-order={o.orderId}>
      <div className="p-msg-head">
        <strong>{o.routeName}</strong>
        <span className="p-muted p-small">
          {o.className} · {time.format(o.startTime)}–{time.format(o.endTime)}
        </span>
        {late && <span className="p-patrol-late">{t('patrol.lateNow')}</span>}
      </div>
      <ol className="p-patrol-points">
        {(o.points ?? []).map((p) => (
          <li key={p.seq} data-testid="phone-patrol-point" data-point={p.pointId} data-state={p.state}>
            <Icon def={p.state === 0 ? ClockCircleOutlined : p.state === 1 ? CheckCircleOutlined : ExclamationCircleOutlined} /> {p.name}
            <span className="p-muted p-small"> · {t(`patrol.pointState.${p.state}`)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Web NFC (Chrome on Android): reads tags while on; each read punches its tag value. */
function NfcButton() {
  const [on, setOn] = useState(false);
  const ctrl = useRef<AbortController | null>(null);
  useEffect(() => () => ctrl.current?.abort(), []);
  const Reader = nfcReader();
  if (!Reader) return null;
  const toggle = async () => {
    if (on) {
      ctrl.current?.abort();
      setOn(false);
      return;
    }
    const c = new AbortController();
    ctrl.current = c;
    const reader = new Reader();
    reader.addEventListener('reading', (ev) => {
      const e = ev as NdefReadingEvent;
      const value = tagValue(e.message, e.serialNumber ?? '');
      if (value) void punch('nfc', { value });
    });
    try {
      await reader.scan({ signal: c.signal });
      setOn(true);
    } catch {
      setOn(false);
    }
  };
  return (
    <button className="p-row" onClick={() => void toggle()} data-testid="phone-patrol-nfc" data-on={on ? '1' : '0'}>
      {on ? t('patrol.nfcOn') : t('patrol.nfc')}
    </button>
  );
}

/** The camera and BarcodeDetector: the first QR code seen punches its text, then the scanner closes. */
function QrScanner({ onDone }: { onDone: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    const onDone = () => done.current();
    const Detector = barcodeDetector();
    if (!Detector) return;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ['qr_code'] });
    const look = async () => {
      if (stopped || !video.current) return;
      try {
        const found = await detector.detect(video.current);
        const value = found[0]?.rawValue?.trim();
        if (value) {
          await punch('qr', { value });
          onDone();
          return;
        }
      } catch {
        // the frame was not ready: look again
      }
      timer = setTimeout(() => void look(), 300);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void look();
      })
      .catch(() => onDone());
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, []);
  return <video ref={video} className="p-patrol-video" muted playsInline data-testid="phone-patrol-video" />;
}
