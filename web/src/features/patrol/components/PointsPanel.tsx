// Patrol points (tbPatrolPoint): list by area and name, add and edit (PointDialog), delete, and the points on the
// map; a row and its point on the map select each other.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Col, Input, Row, Space } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { patrolApi, patrolKeys, type Point } from '../api';
import { AreaSelect } from './AreaSelect';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { PatrolMap } from './PatrolMap';
import { PointDialog } from './PointDialog';
import { QueryTable } from '../../../shared/table/QueryTable';

export function PointsPanel() {
  const { t } = useTranslation('patrol');
  const qc = useQueryClient();
  const [areaId, setAreaId] = useState<number>();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number>();
  const [dialog, setDialog] = useState<{ point: Point | null } | null>(null);
  const q = { areaId, name: name.trim() || undefined, pageNo: page, pageSize: 100 };
  const points = useQuery({ queryKey: patrolKeys.points(q), queryFn: () => patrolApi.points(q) });
  const list = points.data?.list ?? [];
  const refresh = () => void qc.invalidateQueries({ queryKey: patrolKeys.all });

  return (
    <Row gutter={12} data-testid="patrol-points">
      <Col xs={24} xl={13}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ point: null })} data-testid="point-new">
            {t('point.add')}
          </Button>
          <AreaSelect allowClear value={areaId} onChange={(v) => (setAreaId(v), setPage(1))} testId="points-area" />
          <Input.Search allowClear placeholder={t('fields.name')} onSearch={(v) => (setName(v), setPage(1))} style={{ width: 200 }} />
        </Space>
        <QueryTable<Point>
          query={points}
          rows={list}
          pagination={{ current: page, pageSize: 100, total: points.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          rowClassName={(r) => (r.id === selected ? 'ant-table-row-selected' : '')}
          row={(r) => ({ onClick: () => setSelected(r.id), 'data-testid': 'point-row', 'data-name': r.name })}
          columns={[
            { title: t('fields.name'), dataIndex: 'name' },
            { title: t('fields.nfcValue'), dataIndex: 'nfcValue' },
            { title: t('fields.area'), dataIndex: 'areaName' },
            { title: t('fields.position'), key: 'pos', render: (_, r) => `${r.lat.toFixed(5)}, ${r.lng.toFixed(5)}` },
            { title: t('fields.radius'), dataIndex: 'radius', render: (v: number) => `${v} m` },
            {
              title: '',
              key: 'actions',
              render: (_, r) => (
                <Space>
                  <Button size="small" icon={<EditOutlined />} onClick={() => setDialog({ point: r })} aria-label={t('point.edit')} />
                  <RemoveButton ns="patrol" confirm={t('confirm.delete')} label={t('actions.delete')} remove={() => patrolApi.deletePoints([r.id])} done={t('done.deleted')} invalidate={[patrolKeys.all]} />
                </Space>
              ),
            },
          ]}
        />
      </Col>
      <Col xs={24} xl={11}>
        <PatrolMap points={list.map((p) => ({ ...p, selected: p.id === selected }))} onSelect={setSelected} height={520} />
      </Col>
      {dialog && (
        <PointDialog
          point={dialog.point}
          areaId={areaId}
          onClose={() => setDialog(null)}
          onSaved={(p) => {
            setDialog(null);
            setSelected(p.id);
            refresh();
          }}
        />
      )}
    </Row>
  );
}
