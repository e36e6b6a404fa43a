import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, List, Typography } from 'antd';
import dayjs from '../../../shared/utils/dayjs';
import { live, onResync } from '../../../shared/socket/live';
import { capLog, logListQuery, type LogEntry } from '../api';

const INITIAL = { pageNo: 1, pageSize: 300 };

/** The live operation-log panel: REST history plus log.added events, capped at 300 → 150 (spec §5). */
export function LogPanel({ height = 280 }: { height?: number | string }) {
  const { t } = useTranslation('logs');
  const q = useQuery(logListQuery(INITIAL));
  const [entries, setEntries] = useState<LogEntry[]>([]);

  useEffect(() => {
    if (q.data) setEntries(capLog(q.data.list ?? []));
  }, [q.data]);

  useEffect(() => {
    const off = live().on<LogEntry>('log.added', (e) =>
      setEntries((prev) => (prev.some((x) => x.id === e.data.id) ? prev : capLog([e.data, ...prev]))),
    );
    const offResync = onResync(() => void q.refetch());
    return () => {
      off();
      offResync();
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className="log-panel" data-testid="log-panel" data-count={entries.length} style={{ height, overflow: 'auto' }}>
      <List
        size="small"
        loading={q.isLoading}
        dataSource={entries}
        locale={{ emptyText: t('empty') }}
        renderItem={(e) => (
          <List.Item key={e.id} data-testid="log-entry" data-id={e.id} data-type={String(e.type)}>
            <Typography.Text type="secondary" style={{ width: 140, flex: 'none' }}>
              {dayjs(typeof e.date === 'number' ? e.date : Date.parse(e.date) || e.date).format('MM-DD HH:mm:ss')}
            </Typography.Text>
            <Badge color="blue" text={t(`types.${e.type}`, { defaultValue: t('types.unknown', { type: e.type }) })} style={{ width: 170, flex: 'none' }} />
            <span style={{ flex: 1, minWidth: 0 }}>
              {e.name} {e.account ? `(${e.account})` : ''} {e.remark}
            </span>
          </List.Item>
        )}
      />
    </div>
  );
}
