// Patrol areas: what points, routes and plans belong to. An area in use cannot be deleted (1022).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Space } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { patrolApi, patrolKeys, type Area } from '../api';
import { useAreas } from './AreaSelect';
import { useErrorText } from '../../../shared/errorText';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { QueryTable } from '../../../shared/table/QueryTable';

export function AreasPanel() {
  const { t } = useTranslation('patrol');
  const errorText = useErrorText('patrol');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const areas = useAreas();
  const [edit, setEdit] = useState<Partial<Area> | null>(null);
  const [form] = Form.useForm<{ name: string; remark: string }>();
  const refresh = () => void qc.invalidateQueries({ queryKey: patrolKeys.all });
  const save = async () => {
    let v: { name: string; remark: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await patrolApi.saveArea({ id: edit?.id, name: v.name.trim(), remark: v.remark ?? '' });
      message.success(t('done.saved'));
      setEdit(null);
      refresh();
    } catch (e) {
      message.error(errorText(e));
    }
  };

  return (
    <div data-testid="patrol-areas">
      <Button type="primary" icon={<PlusOutlined />} onClick={() => (form.resetFields(), setEdit({}))} style={{ marginBottom: 12 }} data-testid="area-new">
        {t('area.add')}
      </Button>
      <QueryTable<Area>
        query={areas}
        pagination={false}
        columns={[
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.remark'), dataIndex: 'remark' },
          { title: t('area.points'), dataIndex: 'points' },
          { title: t('area.routes'), dataIndex: 'routes' },
          {
            title: '',
            key: 'a',
            render: (_, r) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => (form.setFieldsValue(r), setEdit(r))} aria-label={t('area.edit')} />
                <RemoveButton ns="patrol" confirm={t('confirm.delete')} label={t('actions.delete')} remove={() => patrolApi.deleteAreas([r.id])} done={t('done.deleted')} invalidate={[patrolKeys.all]} />
              </Space>
            ),
          },
        ]}
      />
      <Modal open={!!edit} title={t(edit?.id ? 'area.edit' : 'area.add')} onCancel={() => setEdit(null)} onOk={() => void save()} forceRender okButtonProps={{ 'data-testid': 'area-save' }}>
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, whitespace: true, message: t('rules.required') }, { max: 50, message: t('rules.max50') }]}>
            <Input data-testid="area-name" />
          </Form.Item>
          <Form.Item name="remark" label={t('fields.remark')} rules={[{ max: 200, message: t('rules.max200') }]}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
