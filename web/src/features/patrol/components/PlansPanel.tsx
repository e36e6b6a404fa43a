// Plans (tbPatrolPlan, model 2): a route walked every day of a date range in classes (shifts), each class by one
// patrol user. Adding a plan makes today's and tomorrow's orders at once.
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Modal, Select, Space, TimePicker } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { patrolApi, patrolKeys, type Plan } from '../api';
import { toClasses, type ClassRow } from '../editing';
import { AreaSelect } from './AreaSelect';
import { PatrollerSelect } from './PatrollerSelect';
import { AreaListPanel, tagsColumn, type DialogProps } from './AreaListPanel';
import { useSave } from '../../../shared/crud/useSave';

export function PlansPanel() {
  const { t } = useTranslation('patrol');
  return (
    <AreaListPanel<Plan>
      kind="plans"
      list={patrolApi.plans}
      remove={patrolApi.deletePlans}
      confirmRemove={t('plan.confirmDelete')}
      dialog={(p) => <PlanDialog {...p} />}
      columns={[
        { title: t('fields.route'), dataIndex: 'routeName' },
        { title: t('fields.dates'), key: 'dates', render: (_, r) => `${r.startDate} – ${r.endDate}` },
        tagsColumn<Plan, Plan['classes'][number]>(t('fields.classes'), 'classes', (r) => r.classes, (c) => `${c.name} ${c.startTime}–${c.endTime} · ${c.msName || c.msId}`),
      ]}
    />
  );
}

interface PlanForm {
  name: string;
  areaId: number;
  routeId: number;
  dates: [Dayjs, Dayjs];
  classes: ClassRow[];
}


/** A new plan (plans are not edited: a changed plan is removed and added again). */
function PlanDialog({ areaId, onClose, onSaved }: DialogProps<Plan>) {
  const { t } = useTranslation('patrol');
  const [form] = Form.useForm<PlanForm>();
  const { saving, submit } = useSave('patrol', t('done.saved'));
  const area = Form.useWatch('areaId', form);
  const rq = { areaId: area };
  const routes = useQuery({ queryKey: patrolKeys.routes(rq), queryFn: () => patrolApi.routes(rq), enabled: !!area });

  const save = () =>
    submit(
      form,
      (v) =>
        patrolApi.addPlan({
          name: v.name.trim(),
          areaId: v.areaId,
          routeId: v.routeId,
          startDate: v.dates[0].format('YYYY-MM-DD'),
          endDate: v.dates[1].format('YYYY-MM-DD'),
          classes: toClasses(v.classes),
        }),
      onSaved,
    );


  return (
    <Modal open title={t('plan.add')} onCancel={onClose} onOk={() => void save()} confirmLoading={saving} width={720} okButtonProps={{ 'data-testid': 'plan-save' }}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ areaId, dates: [dayjs(), dayjs().add(30, 'day')], classes: [{ name: t('plan.defaultClass'), time: [dayjs().startOf('hour'), dayjs().startOf('hour').add(2, 'hour')] }] }}
        data-testid="plan-form"
      >
        <Space wrap align="start">
          <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, whitespace: true, message: t('rules.required') }, { max: 50, message: t('rules.max50') }]}>
            <Input data-testid="plan-name" />
          </Form.Item>
          <Form.Item name="areaId" label={t('fields.area')} rules={[{ required: true, message: t('rules.required') }]}>
            <AreaSelect onChange={() => form.setFieldValue('routeId', undefined)} testId="plan-area" />
          </Form.Item>
          <Form.Item name="routeId" label={t('fields.route')} rules={[{ required: true, message: t('rules.required') }]}>
            <Select style={{ minWidth: 180 }} options={(routes.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))} data-testid="plan-route" />
          </Form.Item>
          <Form.Item name="dates" label={t('fields.dates')} rules={[{ required: true, message: t('rules.required') }]}>
            <DatePicker.RangePicker allowClear={false} data-testid="plan-dates" />
          </Form.Item>
        </Space>
        <Form.List name="classes">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="start" wrap data-testid="plan-class">
                  <Form.Item name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: t('rules.required') }]}>
                    <Input placeholder={t('fields.className')} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'time']} rules={[{ required: true, message: t('rules.required') }]} tooltip={t('plan.nightHelp')}>
                    <TimePicker.RangePicker format="HH:mm" order={false} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'msId']} rules={[{ required: true, message: t('plan.pickUser') }]}>
                    <PatrollerSelect withAccount testId="plan-class-user" />
                  </Form.Item>
                  {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('actions.delete')} style={{ marginTop: 8 }} />}
                </Space>
              ))}
              <Button type="dashed" onClick={() => add({ name: '' })} icon={<PlusOutlined />} disabled={fields.length >= 12}>
                {t('plan.addClass')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
