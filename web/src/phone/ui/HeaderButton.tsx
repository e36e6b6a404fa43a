// A button of the phone app's header: an icon of the console's set, its label for screen readers, and a count
// badge when something waits (unread messages, unseen tickets, points left to punch).
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { Icon } from '../../shared/icons/Icon';

export interface HeaderButtonProps {
  icon: IconDefinition;
  label: string;
  onClick: () => void;
  testid: string;
  /** The count shown on the badge; none at 0. */
  count?: number;
  countTestid?: string;
  disabled?: boolean;
  /** Further data-* attributes (for tests). */
  data?: Record<`data-${string}`, string | number>;
}

export function HeaderButton({ icon, label, onClick, testid, count = 0, countTestid, disabled, data }: HeaderButtonProps) {
  return (
    <button className="p-icon" onClick={onClick} disabled={disabled} aria-label={label} data-testid={testid} {...data}>
      <Icon def={icon} />
      {count > 0 && (
        <span className="p-badge" data-testid={countTestid}>
          {count}
        </span>
      )}
    </button>
  );
}
