// The patrol users (sysUsers/list) and the one picker of a patroller (a terminal user) the filters share.
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { patrolApi, patrolKeys } from '../api';

/** The patrol users a class may name (sysUsers/list). */
export function usePatrolUsers() {
  return useQuery({ queryKey: patrolKeys.users({}), queryFn: () => patrolApi.users({}) });
}

interface Props {
  /** Given by a Form.Item when the select is a form field. */
  value?: string;
  onChange?: (v?: string) => void;
  /** A filter may be emptied; a form field may not. */
  allowClear?: boolean;
  /** Labelled "name (account)" where two patrollers may share a name (a plan's classes). */
  withAccount?: boolean;
  testId?: string;
}

/** Picks one patroller by name or account. */
export function PatrollerSelect({ value, onChange, allowClear, withAccount, testId }: Props) {
  const { t } = useTranslation('patrol');
  const users = usePatrolUsers();
  return (
    <Select
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('fields.patroller')}
      style={{ width: 200 }}
      value={value}
      onChange={onChange}
      options={(users.data?.list ?? [])
        .filter((u) => u.role === 'terminal')
        .map((u) => ({ value: u.username, label: withAccount ? `${u.name || u.username} (${u.username})` : u.name || u.username }))}
      data-testid={testId}
    />
  );
}
