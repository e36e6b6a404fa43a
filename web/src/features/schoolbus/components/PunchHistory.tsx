// One student's punches (GET /ds/schoolCar/checklist), newest first, over a range of the customer's zone within a
// calendar month (spec §5); a punch of this student on any bus appears as it happens (the page's live map).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Drawer, Tag } from 'antd';
import { ReportToolbar, monthRule, useLiveReport } from '../../../shared/report/ReportShell';
import { defaultWallRange } from '../../../shared/time/range';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { QueryTable } from '../../../shared/table/QueryTable';
import { BOARDED, schoolbusApi, studentKeys, type Punch, type Student } from '../api';

const MONTH = monthRule();

export function PunchHistory({ student, onClose }: { student: Student; onClose: () => void }) {
  const { t } = useTranslation('schoolbus');
  const dateTime = useDateTimeFormat();
  const report = useLiveReport({ studentId: student.id }, { rule: MONTH, range: () => defaultWallRange() });
  const q = { ...report.query, ...report.page };
  const query = useQuery({ queryKey: studentKeys.checklist(q), queryFn: () => schoolbusApi.checklist(q), staleTime: 0 });
  return (
    <Drawer open title={t('history.title', { name: student.studentName, num: student.studentNum })} onClose={onClose} size="large" data-testid="punch-history">
      <ReportToolbar ns="schoolbus" search={report} error={query.error} />
      <QueryTable<Punch>
        query={query}
        locale={{ emptyText: t('history.none') }}
        pagination={report.pagination(query.data?.total ?? 0)}
        row={(p) => ({ 'data-testid': 'punch-row', 'data-kind': p.kind, 'data-bus': p.busId })}
        columns={[
          { key: 'time', title: t('history.time'), width: 170, render: (_, p) => formatZoned(p.time, dateTime) },
          { key: 'kind', title: t('history.kind'), width: 110, render: (_, p) => <Tag color={p.kind === BOARDED ? 'green' : 'default'}>{t(`kind.${p.kind}`)}</Tag> },
          { key: 'bus', title: t('history.bus'), render: (_, p) => p.busName || p.busId },
          { key: 'pos', title: t('history.position'), width: 170, render: (_, p) => (p.lat != null && p.lng != null ? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)}` : '—') },
        ]}
      />
    </Drawer>
  );
}
