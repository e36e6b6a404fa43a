// Create or edit a lone-work plan, with every rule of spec §5 checked before sending and the server's codes
// shown under the field they concern.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, DatePicker, Form, InputNumber, Modal, Switch, TimePicker, Typography } from 'antd';
import { failureCode, useErrorText } from '../../../shared/errorText';
import type { Dayjs } from '../../../shared/utils/dayjs';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { formatZoned, msToWall, wallNow } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { loneworkApi, type Plan } from '../api';
import { DEFAULT_COUNTDOWN, fieldOfCode, MAX_TERMINALS, plannedStart, validatePlan, type PlanField, type PlanForm, type Problem } from '../validate';

function initial(plan: Plan | null): PlanForm {
  if (plan) {
    const start = msToWall(plan.sTime);
    return { msIds: [plan.msId], date: start, time: start, duration: plan.duration, interval: plan.interval, countdown: plan.countdown, enabled: plan.enabled === 1 };
  }
  const now = wallNow();
  return { msIds: [], date: now, time: now, duration: 60, interval: 30, countdown: DEFAULT_COUNTDOWN, enabled: true };
}

export function PlanDialog({ open, plan, onClose }: { open: boolean; plan: Plan | null; onClose: (saved?: Plan[]) => void }) {
  const { t } = useTranslation('lonework');
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  const [form, setForm] = useState<PlanForm>(() => initial(plan));
  const [problems, setProblems] = useState<Problem[]>([]);
  const errorText = useErrorText('lonework');
  const [serverError, setServerError] = useState<{ code: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const editing = !!plan;

  useEffect(() => {
    if (open) {
      setForm(initial(plan));
      setProblems([]);
      setServerError(null);
    }
  }, [open, plan]);

  const set = <K extends keyof PlanForm>(k: K, v: PlanForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const fieldError = (field: PlanField) => problems.find((p) => p.field === field);
  const item = (field: PlanField) => {
    const p = fieldError(field);
    return p ? { validateStatus: 'error' as const, help: <span data-testid={`plan-error-${field}`} data-code={p.code}>{t(`errors.${p.code}`)}</span> } : {};
  };

  const start = plannedStart(form);
  const end = start !== null && typeof form.duration === 'number' && form.duration > 0 ? start + form.duration * 60_000 : null;

  const submit = async () => {
    const found = validatePlan(form, Date.now(), { editing });
    setProblems(found);
    setServerError(null);
    if (found.length) return;
    setBusy(true);
    const fields = {
      date: form.date!.format('YYYY-MM-DD'),
      time: form.time!.format('HH:mm'),
      duration: form.duration!,
      interval: form.interval!,
      countdown: form.countdown ?? DEFAULT_COUNTDOWN,
      enabled: (form.enabled ? 1 : 0) as 0 | 1,
    };
    try {
      const saved = editing ? [await loneworkApi.update(plan!.id, fields)] : await loneworkApi.add({ msIds: form.msIds, ...fields });
      message.success(t(editing ? 'done.updated' : 'done.created', { count: saved.length }));
      onClose(saved);
    } catch (e) {
      const code = failureCode(e) ?? '';
      const field = fieldOfCode(code);
      if (field) setProblems([{ field, code }]);
      else setServerError({ code, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'dialog.editTitle' : 'dialog.newTitle')}
      okText={t('dialog.save')}
      onOk={submit}
      confirmLoading={busy}
      onCancel={() => onClose()}
      okButtonProps={{ 'data-testid': 'plan-save' }}
      destroyOnHidden
      width={560}
    >
      <Form layout="vertical" data-testid="plan-dialog" component="div">
        <Form.Item label={t('field.terminals', { max: MAX_TERMINALS })} required {...item('msIds')}>
          <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 240 }} value={form.msIds} onChange={(v) => set('msIds', v)} disabled={editing} placeholder={t('field.terminalsPlaceholder')} testId="plan-terminals" status={fieldError('msIds') ? 'error' : undefined} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item label={t('field.date')} required style={{ flex: 1 }} {...item('date')}>
            <DatePicker value={form.date} onChange={(v: Dayjs | null) => set('date', v)} style={{ width: '100%' }} data-testid="plan-date" />
          </Form.Item>
          <Form.Item label={t('field.time')} required style={{ flex: 1 }}>
            <TimePicker value={form.time} format="HH:mm" onChange={(v: Dayjs | null) => set('time', v)} style={{ width: '100%' }} data-testid="plan-time" />
          </Form.Item>
        </div>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item label={t('field.duration')} required style={{ flex: 1 }} {...item('duration')}>
            <InputNumber value={form.duration} onChange={(v) => set('duration', v)} style={{ width: '100%' }} data-testid="plan-duration" />
          </Form.Item>
          <Form.Item label={t('field.interval')} required style={{ flex: 1 }} {...item('interval')}>
            <InputNumber value={form.interval} onChange={(v) => set('interval', v)} style={{ width: '100%' }} data-testid="plan-interval" />
          </Form.Item>
          <Form.Item label={t('field.countdown')} style={{ flex: 1 }} {...item('countdown')}>
            <InputNumber value={form.countdown} onChange={(v) => set('countdown', v)} style={{ width: '100%' }} data-testid="plan-countdown" />
          </Form.Item>
        </div>
        <Form.Item label={t('field.enabled')}>
          <Switch checked={form.enabled} onChange={(v) => set('enabled', v)} data-testid="plan-enabled" />
        </Form.Item>
        <Typography.Text type="secondary" data-testid="plan-window">
          {start !== null && end !== null ? t('dialog.window', { from: formatZoned(start, dateTime), to: formatZoned(end, dateTime) }) : t('dialog.noWindow')}
        </Typography.Text>
        {serverError && <Alert style={{ marginTop: 12 }} type="error" showIcon title={serverError.text} data-testid="plan-server-error" data-code={serverError.code} />}
      </Form>
    </Modal>
  );
}
