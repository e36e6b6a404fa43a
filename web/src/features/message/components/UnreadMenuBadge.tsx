import { useEffect } from 'react';
import { Badge } from 'antd';
import { retainMessageSync, useUnreadTotal } from '../store';

/** The message tab's label with the dispatcher's unread total; keeps the unread list live while the shell is up. */
export function UnreadMenuBadge({ label }: { label: string }) {
  useEffect(() => retainMessageSync(), []);
  const total = useUnreadTotal();
  return (
    <span data-testid="message-tab-badge" data-count={total}>
      <Badge count={total} size="small" offset={[8, -4]} overflowCount={999}>
        <span style={{ color: 'inherit' }}>{label}</span>
      </Badge>
    </span>
  );
}
