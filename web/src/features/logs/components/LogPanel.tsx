import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, List, Typography } from 'antd';
import dayjs from '../../../shared/utils/dayjs';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { useDirectoryLoaded } from '../../../shared/directory/choices';
import { logKeys } from '../api';
import { actorOf } from '../entries';
import { LOG_EVENTS, logFeedQuery } from '../feed';
import { LogText } from './LogText';

/**
 * The live operation-log panel: REST history plus log.added events, capped at 300 → 150 (spec §5), one feed in
 * the query cache (feed.ts). Both go through mergeEntries, so the rows stay newest first by (time, id) whichever
 * arrives first, and a REST answer that was on its way while an event arrived does not drop that event.
 */
export function LogPanel({ height = 280 }: { height?: number | string }) {
  const { t } = useTranslation('logs');
  const q = useQuery(logFeedQuery);
  useLiveQueries(LOG_EVENTS, logKeys.feed.all);
  useDirectoryLoaded();
  const entries = q.data ?? [];

  return (
    <div className="log-panel" data-testid="log-panel" data-count={entries.length} style={{ height, overflow: 'auto' }}>
      <List
        size="small"
        loading={q.isLoading}
        dataSource={entries}
        locale={{ emptyText: t('empty') }}
        renderItem={(e) => (
          <List.Item key={e.id} data-testid="log-entry" data-id={e.id} data-type={String(e.type)} data-account={e.account} data-date={String(e.date)}>
            <Typography.Text type="secondary" style={{ width: 140, flex: 'none' }}>
              {dayjs(typeof e.date === 'number' ? e.date : Date.parse(e.date) || e.date).format('MM-DD HH:mm:ss')}
            </Typography.Text>
            <Badge color="blue" text={t(`types.${e.type}`, { defaultValue: t('types.unknown', { type: e.type }) })} style={{ width: 170, flex: 'none' }} />
            <span style={{ flex: 1, minWidth: 0 }}>
              <LogText entry={e} actor={actorOf(e)} />
            </span>
          </List.Item>
        )}
      />
    </div>
  );
}
