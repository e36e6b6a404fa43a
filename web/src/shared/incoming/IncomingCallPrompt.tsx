// The prompt of a call ringing here: a centred dialog that stays until answered or declined, with the ring tone and,
// when the tab is hidden, a desktop notification (ringing.ts). The video call window uses it for calls from the
// field; it is the individual call's prompt (a modal over the screen with answer and decline) made shareable.
import { useEffect, type ReactNode } from 'react';
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

export function IncomingCallPrompt({ title, rows, ring, ids }: { title: string; rows: IncomingRow[]; ring: (row: IncomingRow) => RingingCall; ids: PromptIds }) {
  return (
    <Modal open={rows.length > 0} title={title} centered closable={false} mask={{ closable: false }} keyboard={false} footer={null} destroyOnHidden zIndex={1500} data-testid={ids.dialog}>
      {rows.map((r) => (
        <div key={r.id} className="incoming-row" data-testid={ids.row} data-call-id={r.id} data-ringing="1">
          <Ringing call={ring(r)} />
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
