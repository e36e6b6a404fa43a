import { useState } from 'react';
import { t } from '../i18n';
import { Sheet } from '../ui/Sheet';
import { punch, usePunches, type PunchKind } from './bus';

interface NdefReader {
  scan: () => Promise<void>;
  onreading: ((e: { serialNumber: string }) => void) | null;
}

/** Where the phone is, if it knows (for the punch); never waits long for it. */
function position(): Promise<{ lat: number; lng: number } | undefined> {
  return new Promise((resolve) => {
    if (!navigator.geolocation) return resolve(undefined);
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude }),
      () => resolve(undefined),
      { maximumAge: 60_000, timeout: 3000 },
    );
  });
}

/** The bus's card reader: a card number (typed or read by NFC), then boarded or alighted. */
export function BusSheet({ onClose }: { onClose: () => void }) {
  const [card, setCard] = useState('');
  const queue = usePunches((s) => s.queue.length);
  const last = usePunches((s) => s.last);
  const nfc = typeof window !== 'undefined' && 'NDEFReader' in window;
  const send = async (kind: PunchKind) => {
    const num = card;
    setCard('');
    await punch(num, kind, await position());
  };
  const scan = async () => {
    try {
      const reader = new (window as unknown as { NDEFReader: new () => NdefReader }).NDEFReader();
      await reader.scan();
      reader.onreading = (e) => setCard(e.serialNumber.replace(/:/g, '').toUpperCase());
    } catch {
      /* NFC refused or off: type the number */
    }
  };
  return (
    <Sheet title={t('bus.title')} onClose={onClose} testid="phone-bus">
      <div className="p-compose">
        <input value={card} onChange={(e) => setCard(e.target.value)} placeholder={t('bus.card')} maxLength={64} data-testid="phone-bus-card" />
        {nfc && (
          <button className="p-secondary" type="button" onClick={() => void scan()}>
            {t('bus.nfc')}
          </button>
        )}
      </div>
      <div className="p-job-actions">
        <button className="p-primary" disabled={!card.trim()} onClick={() => void send(1)} data-testid="phone-bus-board">
          {t('bus.board')}
        </button>
        <button className="p-secondary" disabled={!card.trim()} onClick={() => void send(2)} data-testid="phone-bus-alight">
          {t('bus.alight')}
        </button>
      </div>
      {last && (
        <p className="p-small" data-testid="phone-bus-last">
          {t(last.kind === 1 ? 'bus.boarded' : 'bus.alighted', { name: last.name })}
        </p>
      )}
      {queue > 0 && <p className="p-muted p-small">{t('bus.waiting', { count: queue })}</p>}
    </Sheet>
  );
}
