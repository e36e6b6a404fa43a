// Routes (tbPatrolRoute): ordered points of one area. The editor adds points of the area, moves them up and down
// and shows the walk on the map.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Table } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined } from '@ant-design/icons';
import { patrolApi, patrolKeys, type Route } from '../api';
import { move } from '../editing';
import { AreaSelect } from './AreaSelect';
import { AreaListPanel, tagsColumn, type DialogProps } from './AreaListPanel';
import { useSave } from '../../../shared/crud/useSave';
import { PatrolMap } from './PatrolMap';

export function RoutesPanel() {
  const { t } = useTranslation('patrol');
  return (
    <AreaListPanel<Route>
      kind="routes"
      editable
      list={patrolApi.routes}
      remove={patrolApi.deleteRoutes}
      confirmRemove={t('confirm.delete')}
      dialog={(p) => <RouteDialog {...p} />}
      columns={[tagsColumn<Route, Route['routePoints'][number]>(t('fields.routePoints'), 'points', (r) => r.routePoints, (p) => `${p.seq}. ${p.name}`)]}
    />
  );
}

function RouteDialog({ row: route, areaId, onClose, onSaved }: DialogProps<Route>) {
  const { t } = useTranslation('patrol');
  const { message } = App.useApp();
  const { saving, save: run } = useSave('patrol', t('done.saved'));
  const [name, setName] = useState(route?.name ?? '');
  const [area, setArea] = useState<number | undefined>(route?.areaId ?? areaId);
  const [ids, setIds] = useState<number[]>(route?.routePoints.map((p) => p.id) ?? []);
  const q = { areaId: area, pageSize: 1000 };
  const points = useQuery({ queryKey: patrolKeys.points(q), queryFn: () => patrolApi.points(q), enabled: !!area });
  const byId = new Map((points.data?.list ?? []).map((p) => [p.id, p]));
  const walk = ids.map((id) => byId.get(id)).filter((p) => !!p);

  const save = async () => {
    if (!name.trim() || !area || ids.length === 0) {
      message.error(t('route.incomplete'));
      return;
    }
    await run(() => patrolApi.saveRoute({ id: route?.id, name: name.trim(), areaId: area, routePoints: ids }), onSaved);
  };

  return (
    <Modal open title={t(route ? 'route.edit' : 'route.add')} onCancel={onClose} onOk={() => void save()} confirmLoading={saving} width={820} okButtonProps={{ 'data-testid': 'route-save' }}>
      <Form layout="vertical">
        <Space wrap>
          <Form.Item label={t('fields.name')} required>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={50} data-testid="route-name" />
          </Form.Item>
          <Form.Item label={t('fields.area')} required>
            <AreaSelect
              value={area}
              onChange={(v) => {
                setArea(v);
                setIds([]);
              }}
              testId="route-area"
            />
          </Form.Item>
          <Form.Item label={t('route.addPoint')}>
            <Select
              style={{ minWidth: 220 }}
              value={null}
              placeholder={t('route.addPoint')}
              onChange={(v: number) => setIds((l) => (l.includes(v) ? l : [...l, v]))}
              options={(points.data?.list ?? []).filter((p) => !ids.includes(p.id)).map((p) => ({ value: p.id, label: p.name }))}
              data-testid="route-add-point"
            />
          </Form.Item>
        </Space>
      </Form>
      <Table
        size="small"
        rowKey="id"
        dataSource={walk}
        pagination={false}
        locale={{ emptyText: t('route.empty') }}
        onRow={() => ({ 'data-testid': 'route-point' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: '#', key: 'seq', width: 48, render: (_, _p, i) => i + 1 },
          { title: t('fields.point'), key: 'name', render: (_, p) => `${p.name} (${p.nfcValue})` },
          {
            title: '',
            key: 'a',
            width: 120,
            render: (_, p, i) => (
              <Space size={4}>
                <Button size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => setIds((l) => move(l, i, -1))} aria-label={t('route.up')} />
                <Button size="small" icon={<ArrowDownOutlined />} disabled={i === walk.length - 1} onClick={() => setIds((l) => move(l, i, 1))} aria-label={t('route.down')} />
                <Button size="small" icon={<CloseOutlined />} onClick={() => setIds((l) => l.filter((x) => x !== p.id))} aria-label={t('actions.delete')} />
              </Space>
            ),
          },
        ]}
        style={{ marginBottom: 12 }}
      />
      <PatrolMap points={walk} route height={260} />
    </Modal>
  );
}
