import type { ReactNode } from 'react';
import { t } from '../i18n';
import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { Icon } from '../../shared/icons/Icon';

/** A bottom sheet (groups, inbox, menu): closes on the backdrop and on its close button. */
export function Sheet({ title, onClose, children, testid }: { title: string; onClose: () => void; children: ReactNode; testid: string }) {
  return (
    <div className="p-sheet-wrap" onClick={onClose}>
      <div className="p-sheet" onClick={(e) => e.stopPropagation()} data-testid={testid} role="dialog" aria-label={title}>
        <div className="p-sheet-head">
          <strong>{title}</strong>
          <button className="p-icon" onClick={onClose} aria-label={t('messages.close')}>
            <Icon def={CloseOutlined} />
          </button>
        </div>
        <div className="p-sheet-body">{children}</div>
      </div>
    </div>
  );
}
