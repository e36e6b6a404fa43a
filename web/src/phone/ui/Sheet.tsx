import type { ReactNode } from 'react';
import { t } from '../i18n';

/** A bottom sheet (groups, inbox, menu): closes on the backdrop and on its ✕. */
export function Sheet({ title, onClose, children, testid }: { title: string; onClose: () => void; children: ReactNode; testid: string }) {
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
