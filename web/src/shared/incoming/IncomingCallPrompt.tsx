// The prompt of a call ringing here: a centred dialog that stays until answered or declined, with the ring tone and,
// when the tab is hidden, a desktop notification (ringing.ts). Individual calls (the voice dock) and video calls
// from the field (the video call window) ring through it, so neither is easier to miss than the other.
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal, Space } from 'antd';
import { startRinging, type RingingCall } from './ringing';
import './incoming.css';

export interface IncomingRow {
  id: string;
  /** "Unit 7 is calling". */
  text: string;
  answer: { label: ReactNode; icon?: ReactNode; onClick: () => void };
  decline: { label: ReactNode; onClick: () => void };
}

/** The dialog's test ids (each prompt keeps the ids its cases know). */
export interface PromptIds {
  dialog: string;
  row: string;
  answer: string;
  decline: string;
}

/** Rings (tone, notification when hidden) for one call while it is shown. */
function Ringing({ call }: { call: RingingCall }) {
  useEffect(() => startRinging(call), [call.tag, call.volume]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

/**
 * tag: names the calls' desktop notifications ("video" → "video-<id>"); tone: the ring volume 0–100, undefined
 * for none (the user turned call tones off).
 */
export function IncomingCallPrompt({ title, rows, ids, tag, tone }: { title: string; rows: IncomingRow[]; ids: PromptIds; tag: string; tone?: number }) {
  const { t } = useTranslation('common');
  return (
    <Modal open={rows.length > 0} title={title} centered closable={false} mask={{ closable: false }} keyboard={false} footer={null} destroyOnHidden zIndex={1500} data-testid={ids.dialog}>
      {rows.map((r) => (
        <div key={r.id} className="incoming-row" data-testid={ids.row} data-call-id={r.id} data-ringing="1">
          <Ringing call={{ tag: `${tag}-${r.id}`, title: r.text, body: t('incoming.notifyBody'), volume: tone }} />
          <span className="incoming-text">{r.text}</span>
          <Space>
            <Button type="primary" size="large" icon={r.answer.icon} onClick={r.answer.onClick} data-testid={ids.answer}>
              {r.answer.label}
            </Button>
            <Button danger size="large" onClick={r.decline.onClick} data-testid={ids.decline}>
              {r.decline.label}
            </Button>
          </Space>
        </div>
      ))}
    </Modal>
  );
}
