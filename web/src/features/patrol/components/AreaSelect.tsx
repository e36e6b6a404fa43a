import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { patrolApi, patrolKeys } from '../api';

/** The customer's patrol areas (tbPatrolArea/list). */
export function useAreas() {
  return useQuery({ queryKey: patrolKeys.areas(), queryFn: () => patrolApi.areas() });
}

export function AreaSelect(props: { value?: number; onChange?: (v: number | undefined) => void; allowClear?: boolean; testId?: string; style?: React.CSSProperties }) {
  const { t } = useTranslation('patrol');
  const areas = useAreas();
  return (
    <Select
      allowClear={props.allowClear}
      placeholder={t('fields.area')}
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      loading={areas.isLoading}
      options={(areas.data?.list ?? []).map((a) => ({ value: a.id, label: a.name }))}
      style={{ minWidth: 180, ...props.style }}
      data-testid={props.testId}
    />
  );
}
