import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Drawer, Empty, Tag, Timeline } from 'antd';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { jobApi, jobKeys, STATE_COLOR, type Job } from '../api';

/** Every change of a job's tickets, oldest first (GET /ds/job/history). */
export function HistoryDrawer({ job, onClose }: { job: Job | null; onClose: () => void }) {
  const { t } = useTranslation('jobs');
  const dateTime = useDateTimeFormat();
  const q = useQuery({ queryKey: jobKeys.history(job?.jobId ?? ''), queryFn: () => jobApi.history(job!.jobId), enabled: !!job });
  const names = new Map(job?.jobMsList.map((tk) => [tk.msId, tk.msName]) ?? []);
  return (
    <Drawer open={!!job} onClose={onClose} title={t('history.title', { job: job?.job.slice(0, 40) ?? '' })} width={460} data-testid="job-history">
      {q.data && q.data.length === 0 && <Empty />}
      <Timeline
        items={(q.data ?? []).map((h) => ({
          key: h.id,
          color: h.action === 'rejected' ? 'red' : h.action === 'completed' ? 'green' : 'blue',
          children: (
            <div data-testid="job-history-entry" data-action={h.action}>
              <div>
                <strong>{names.get(h.msId) || h.msId}</strong> · {t(`history.action.${h.action}`)}{' '}
                <Tag color={STATE_COLOR[h.state]}>{t(`state.${h.state}`)}</Tag>
              </div>
              <div className="job-muted">
                {formatZoned(h.time, dateTime)} · {h.byName || h.by}
              </div>
              {h.reason && <div>{h.reason}</div>}
            </div>
          ),
        }))}
      />
    </Drawer>
  );
}
