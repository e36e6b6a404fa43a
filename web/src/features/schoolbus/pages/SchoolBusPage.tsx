// /school-bus: the students who ride the buses, with their guardian and photo; add, edit and delete them, see where
// each is now and their punches. Live: every card punch (bus.punched) refreshes the list, the open history and the
// terminal panels' on-bus lists; the socket coming back online refetches them all (useLiveQueries).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Card, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, HistoryOutlined, PlusOutlined, UserOutlined } from '@ant-design/icons';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { useErrorText } from '../../../shared/errorText';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { QueryTable } from '../../../shared/table/QueryTable';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { BOARDED, SCHOOLBUS_EVENTS, schoolbusApi, studentKeys, type Student } from '../api';
import { StudentDialog } from '../components/StudentDialog';
import { PunchHistory } from '../components/PunchHistory';

const PAGE_SIZE = 20;

export default function SchoolBusPage() {
  const { t } = useTranslation('schoolbus');
  const dateTime = useDateTimeFormat();
  const errorText = useErrorText('schoolbus');
  const qc = useQueryClient();
  const [filter, setFilter] = useState({ keyword: '', busId: '' });
  const [page, setPage] = useState({ pageNo: 1, pageSize: PAGE_SIZE });
  const q = { ...filter, ...page };
  const query = useQuery({ queryKey: studentKeys.students(q), queryFn: () => schoolbusApi.list(q), staleTime: 0, placeholderData: keepPreviousData });
  const [dialog, setDialog] = useState<{ student: Student | null } | null>(null);
  const [history, setHistory] = useState<Student | null>(null);

  useLiveQueries(SCHOOLBUS_EVENTS, studentKeys.all);

  const change = (patch: Partial<typeof filter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, pageNo: 1 }));
  };

  return (
    <div className="page-pad" data-testid="schoolbus-page" data-total={query.data?.total ?? ''}>
      <Card size="small" title={t('title')}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Space wrap style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ student: null })} data-testid="student-new">
            {t('actions.new')}
          </Button>
          <Input.Search allowClear placeholder={t('search')} onSearch={(keyword) => change({ keyword: keyword.trim() })} style={{ width: 260 }} data-testid="student-search" />
          <TerminalPicker value={filter.busId || undefined} onChange={(busId) => change({ busId: busId ?? '' })} placeholder={t('bus')} testId="student-bus" />
        </Space>
        {query.error ? (
          <Tag color="red" data-testid="schoolbus-error">
            {errorText(query.error)}
          </Tag>
        ) : null}
        <QueryTable<Student>
          query={query}
          pagination={{ current: page.pageNo, pageSize: page.pageSize, total: query.data?.total ?? 0, onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
          row={(s) => ({ 'data-testid': 'student-row', 'data-id': s.id, 'data-num': s.studentNum, 'data-onbus': s.onBus, 'data-last-kind': s.lastPunch?.kind ?? '' })}
          columns={[
            { key: 'photo', title: t('col.photo'), width: 64, render: (_, s) => <Avatar src={s.studentAvatar || undefined} icon={<UserOutlined />} /> },
            { key: 'num', title: t('col.num'), dataIndex: 'studentNum', width: 130 },
            { key: 'name', title: t('col.name'), dataIndex: 'studentName' },
            { key: 'sex', title: t('col.sex'), width: 90, render: (_, s) => t(`sex.${s.studentSex}`) },
            { key: 'birth', title: t('col.birth'), dataIndex: 'studentBirth', width: 120 },
            {
              key: 'guardian',
              title: t('col.guardian'),
              render: (_, s) => (
                <>
                  {s.guardianName}
                  <br />
                  <Typography.Text type="secondary">{s.guardianPhone}</Typography.Text>
                </>
              ),
            },
            {
              key: 'where',
              title: t('col.where'),
              render: (_, s) => (s.onBus ? <Tag color="green">{t('onBus', { bus: s.busName || s.onBus })}</Tag> : <Typography.Text type="secondary">{t('offBus')}</Typography.Text>),
            },
            {
              key: 'last',
              title: t('col.lastPunch'),
              width: 220,
              render: (_, s) =>
                s.lastPunch ? (
                  <span data-testid="student-last-punch">
                    <Tag color={s.lastPunch.kind === BOARDED ? 'green' : 'default'}>{t(`kind.${s.lastPunch.kind}`)}</Tag>
                    {formatZoned(s.lastPunch.time, dateTime)}
                  </span>
                ) : (
                  <Typography.Text type="secondary">{t('never')}</Typography.Text>
                ),
            },
            {
              key: 'actions',
              title: t('col.actions'),
              width: 130,
              render: (_, s) => (
                <Space size={4}>
                  <Tooltip title={t('actions.history')}>
                    <Button size="small" icon={<HistoryOutlined />} aria-label={t('actions.history')} onClick={() => setHistory(s)} data-testid="student-history" />
                  </Tooltip>
                  <Tooltip title={t('actions.edit')}>
                    <Button size="small" icon={<EditOutlined />} aria-label={t('actions.edit')} onClick={() => setDialog({ student: s })} data-testid="student-edit" />
                  </Tooltip>
                  <RemoveButton
                    ns="schoolbus"
                    confirm={t('confirm.delete', { name: s.studentName, num: s.studentNum })}
                    label={t('actions.delete')}
                    remove={() => schoolbusApi.remove(s.id)}
                    invalidate={[studentKeys.all]}
                    done={t('done.deleted')}
                    testId="student-delete"
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <StudentDialog
        open={!!dialog}
        editing={dialog?.student ?? null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          void qc.invalidateQueries({ queryKey: studentKeys.all });
        }}
      />
      {history && <PunchHistory key={history.id} student={history} onClose={() => setHistory(null)} />}
    </div>
  );
}
