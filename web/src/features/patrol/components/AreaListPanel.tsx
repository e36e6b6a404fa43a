// The shape routes and plans share: a list of one area (or all), a "new" button, each row edited (routes) or
// only removed (plans) after a confirmation, and the dialog that saves one refreshing every patrol list.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Page } from '../../../shared/http/createClient';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { patrolKeys } from '../api';
import { AreaSelect } from './AreaSelect';
import { QueryTable } from '../../../shared/table/QueryTable';

/** What the dialog is opened for: a new row (null) or the row to edit. */
export interface DialogProps<R> {
  row: R | null;
  areaId?: number;
  onClose: () => void;
  onSaved: () => void;
}

interface Props<R extends { id: number; name: string }> {
  /** Its query key; the panel is patrol-<kind>, its button <one>-new and its rows <one>-row, worded <one>.add. */
  kind: 'plans' | 'routes';
  list: (q: { areaId?: number }) => Promise<Page<R>>;
  remove: (ids: number[]) => Promise<unknown>;
  confirmRemove: string;
  /** The columns after the name and the area. */
  columns: ColumnsType<R>;
  /** Rows may be edited (routes: <one>.edit). */
  editable?: boolean;
  dialog: (p: DialogProps<R>) => ReactNode;
}

/** A column of numbered parts as tags: a plan's classes, a route's points. */
export function tagsColumn<R, X extends { seq?: number }>(title: string, key: string, parts: (r: R) => X[], label: (x: X) => ReactNode): ColumnsType<R>[number] {
  return {
    title,
    key,
    render: (_, r) => (
      <Space size={2} wrap>
        {parts(r).map((x, i) => (
          <Tag key={x.seq ?? i}>{label(x)}</Tag>
        ))}
      </Space>
    ),
  };
}

export function AreaListPanel<R extends { id: number; name: string }>({ kind, list, remove, confirmRemove, columns, editable, dialog }: Props<R>) {
  const { t } = useTranslation('patrol');
  const one = kind === 'plans' ? 'plan' : 'route';
  const qc = useQueryClient();
  const [areaId, setAreaId] = useState<number>();
  const [open, setOpen] = useState<{ row: R | null } | null>(null);
  const q = { areaId };
  const rows = useQuery({ queryKey: patrolKeys[kind](q), queryFn: () => list(q) });
  return (
    <div data-testid={`patrol-${kind}`}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen({ row: null })} data-testid={`${one}-new`}>
          {t(`${one}.add`)}
        </Button>
        <AreaSelect allowClear value={areaId} onChange={setAreaId} />
      </Space>
      <QueryTable<R>
        query={rows}
        pagination={false}
        row={(r) => ({ 'data-testid': `${one}-row`, 'data-name': r.name })}
        columns={[
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.area'), dataIndex: 'areaName' },
          ...columns,
          {
            title: '',
            key: 'actions',
            render: (_, r) => (
              <Space>
                {editable && <Button size="small" icon={<EditOutlined />} onClick={() => setOpen({ row: r })} aria-label={t(`${one}.edit`)} />}
                <RemoveButton ns="patrol" confirm={confirmRemove} label={t('actions.delete')} remove={() => remove([r.id])} done={t('done.deleted')} invalidate={[patrolKeys.all]} />
              </Space>
            ),
          },
        ]}
      />
      {open &&
        dialog({
          row: open.row,
          areaId,
          onClose: () => setOpen(null),
          onSaved: () => {
            setOpen(null);
            void qc.invalidateQueries({ queryKey: patrolKeys.all });
          },
        })}
    </div>
  );
}
