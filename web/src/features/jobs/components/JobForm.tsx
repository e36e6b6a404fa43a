// The new job ticket: the task, the address, the terminals (the shared terminal picker: the tree's terminals) and
// the place — typed, or picked on the page's map while this drawer is open (it leaves the map usable).
import { useTranslation } from 'react-i18next';
import { App, Button, Drawer, Form, Input, InputNumber, Space, Switch } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import { useSave } from '../../../shared/crud/useSave';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { jobApi, type Job } from '../api';

export const MAX_TASK = 500;
export const MAX_ADDRESS = 200;
export const MAX_TERMINALS = 100;

/** The position's two inputs: latitude and longitude, each up to its bound either way. */
const COORDS = [
  { key: 'lat', max: 90 },
  { key: 'lng', max: 180 },
] as const;

export interface Draft {
  job: string;
  address: string;
  msIds: string[];
  lat: number | null;
  lng: number | null;
}

/** Checks a draft as the server does (docs/api.md "Job tickets"): the i18n key of the first problem, or null. */
export function draftProblem(d: Draft): string | null {
  if (!d.job.trim()) return 'errors.130';
  if (d.msIds.length === 0) return 'errors.131';
  if (d.msIds.length > MAX_TERMINALS) return 'errors.132';
  if ((d.lat === null) !== (d.lng === null)) return 'errors.133';
  if (d.lat !== null && (d.lat < -90 || d.lat > 90 || d.lng! < -180 || d.lng! > 180)) return 'errors.133';
  if ([...d.job.trim()].length > MAX_TASK || [...d.address.trim()].length > MAX_ADDRESS) return 'errors.136';
  return null;
}

export function JobForm({
  open,
  draft,
  setDraft,
  picking,
  setPicking,
  onClose,
  onSent,
}: {
  open: boolean;
  draft: Draft;
  setDraft: (d: Draft) => void;
  picking: boolean;
  setPicking: (v: boolean) => void;
  onClose: () => void;
  onSent: (j: Job) => void;
}) {
  const { t } = useTranslation('jobs');
  const { message } = App.useApp();
  const { saving: busy, save } = useSave('jobs');
  const send = async () => {
    const problem = draftProblem(draft);
    if (problem) {
      message.error(t(problem));
      return;
    }
    await save(
      () =>
        jobApi.add({
          job: draft.job.trim(),
          address: draft.address.trim(),
          msIds: draft.msIds,
          ...(draft.lat !== null && draft.lng !== null ? { lat: draft.lat, lng: draft.lng } : {}),
        }),
      (j) => {
        message.success(t('sent', { count: j.jobMsList.length }));
        onSent(j);
      },
    );
  };
  return (
    <Drawer
      open={open}
      onClose={onClose}
      mask={false}
      width={400}
      title={t('form.title')}
      data-testid="job-form"
      extra={
        <Button type="primary" loading={busy} onClick={send} data-testid="job-send">
          {t('form.send')}
        </Button>
      }
    >
      <Form layout="vertical">
        <Form.Item label={t('form.task')} required>
          <Input.TextArea
            rows={4}
            maxLength={MAX_TASK}
            showCount
            value={draft.job}
            onChange={(e) => setDraft({ ...draft, job: e.target.value })}
            data-testid="job-task"
          />
        </Form.Item>
        <Form.Item label={t('form.terminals')} required>
          <TerminalPicker
            multiple
            maxCount={MAX_TERMINALS}
            value={draft.msIds}
            onChange={(msIds) => setDraft({ ...draft, msIds })}
            placeholder={t('form.terminalsHint')}
            testId="job-terminals"
          />
        </Form.Item>
        <Form.Item label={t('form.address')}>
          <Input maxLength={MAX_ADDRESS} value={draft.address} onChange={(e) => setDraft({ ...draft, address: e.target.value })} data-testid="job-address" />
        </Form.Item>
        <Form.Item label={t('form.position')} extra={t('form.positionHint')}>
          <Space wrap>
            {COORDS.map(({ key, max }) => (
              <InputNumber
                key={key}
                placeholder={t(`form.${key}`)}
                min={-max}
                max={max}
                step={0.0001}
                value={draft[key]}
                onChange={(v) => setDraft({ ...draft, [key]: v ?? null })}
                data-testid={`job-${key}`}
              />
            ))}
          </Space>
          <div style={{ marginTop: 8 }}>
            <Switch checked={picking} onChange={setPicking} checkedChildren={<AimOutlined />} data-testid="job-pick" /> {t('form.pick')}
          </div>
        </Form.Item>
      </Form>
    </Drawer>
  );
}
