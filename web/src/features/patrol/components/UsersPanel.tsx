// Patrol users (sysUsers): the PoC accounts the patrol service knows. Terminals become patrol users here
// (addUserByNms) before a plan's class can name them.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Tag } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { patrolApi, patrolKeys, type PatrolUser } from '../api';
import { useErrorText } from '../../../shared/errorText';
import { QueryTable } from '../../../shared/table/QueryTable';

export function UsersPanel() {
  const { t } = useTranslation('patrol');
  const errorText = useErrorText('patrol');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [adding, setAdding] = useState<string[]>([]);
  const q = { name: name.trim() || undefined };
  const users = useQuery({ queryKey: patrolKeys.users(q), queryFn: () => patrolApi.users(q) });
  const add = async () => {
    try {
      await patrolApi.addUsers(adding);
      setAdding([]);
      message.success(t('done.saved'));
      void qc.invalidateQueries({ queryKey: patrolKeys.users.all });
    } catch (e) {
      message.error(errorText(e));
    }
  };
  return (
    <div data-testid="patrol-users">
      <Space wrap style={{ marginBottom: 12 }}>
        <TerminalPicker multiple value={adding} onChange={(v) => setAdding((v as string[]) ?? [])} placeholder={t('users.pick')} style={{ minWidth: 280 }} testId="users-pick" />
        <Button type="primary" icon={<UserAddOutlined />} disabled={adding.length === 0} onClick={() => void add()} data-testid="users-add">
          {t('users.add')}
        </Button>
        <Input.Search allowClear placeholder={t('fields.name')} onSearch={setName} style={{ width: 200 }} />
      </Space>
      <QueryTable<PatrolUser>
        query={users}
        pagination={{ pageSize: 100, showSizeChanger: false }}
        columns={[
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.pocAccount'), dataIndex: 'pocAccount' },
          { title: t('fields.role'), dataIndex: 'role', render: (r: string) => <Tag>{t(`role.${r}`)}</Tag> },
        ]}
      />
    </div>
  );
}
