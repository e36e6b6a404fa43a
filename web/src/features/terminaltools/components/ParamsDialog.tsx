// Remote parameters (spec §4 "set param", §9 "Remote control intervals in seconds, minutes or hours"): the GPS,
// heartbeat and status intervals of a terminal, relayed over the socket. The dialog opens with the terminal's
// current values (param.get: what it reports, else what it acknowledged before), waits for the terminal's
// acknowledgement of a change and shows what it stored.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Descriptions, InputNumber, Modal, Select, Space, Spin, Typography } from 'antd';
import { useDirectory } from '../../../shared/directory/store';
import { errorCode } from '../../../shared/errors';
import { useErrorText } from '../../../shared/errorText';
import { checkInterval, PARAMS, splitInterval, toolsApi, toolsKeys, type CurrentParams, type ParamName, type ParamSetResult, type Unit } from '../api';

type Row = { n: number | null; unit: Unit; on: boolean };
const NAMES = Object.keys(PARAMS) as ParamName[];

/** The form's rows for a set of values ("30s", "5m"): each shown, none chosen for sending yet. */
function rowsOf(values?: Record<string, string>): Record<ParamName, Row> {
  const out = {} as Record<ParamName, Row>;
  for (const k of NAMES) {
    const v = splitInterval(values?.[k]);
    out[k] = v ? { n: v.n, unit: v.unit, on: false } : { n: null, unit: 's', on: false };
  }
  return out;
}

export function ParamsDialog({ cid, onClose }: { cid: string; onClose: () => void }) {
  const { t } = useTranslation('terminaltools');
  const errorText = useErrorText('terminaltools');
  const name = useDirectory((s) => s.terminals[cid]?.name) ?? cid;
  const online = useDirectory((s) => s.terminals[cid]?.online === '1');
  const current = useQuery({ queryKey: toolsKeys.params(cid), queryFn: () => toolsApi.currentParams(cid), staleTime: 0, gcTime: 0, retry: false });
  const [rows, setRows] = useState<Record<ParamName, Row>>(() => rowsOf(current.data?.params));
  // The values arrive after the dialog opened: they fill the form once (adjusting state while rendering, not in an
  // effect), before the dispatcher has chosen anything to send.
  const [shown, setShown] = useState<CurrentParams | undefined>(current.data);
  if (current.data && current.data !== shown) {
    setShown(current.data);
    if (!NAMES.some((k) => rows[k].on)) setRows(rowsOf(current.data.params));
  }
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'waiting' } | { kind: 'acked'; result: ParamSetResult } | { kind: 'failed'; code: string; text: string }>({ kind: 'idle' });
  const checks = NAMES.map((k) => [k, rows[k].on ? checkInterval(k, rows[k].n, rows[k].unit) : undefined] as const);
  const chosen = checks.filter(([, c]) => c);
  const invalid = chosen.some(([, c]) => c && 'problem' in c);

  const send = async () => {
    const params: Partial<Record<ParamName, string>> = {};
    for (const [k, c] of chosen) if (c && 'value' in c) params[k] = c.value;
    setState({ kind: 'waiting' });
    try {
      setState({ kind: 'acked', result: await toolsApi.setParams(cid, params) });
    } catch (e) {
      setState({ kind: 'failed', code: errorCode(e), text: errorText(e) });
    }
  };

  return (
    <Modal
      open
      title={t('params.title', { name })}
      onCancel={onClose}
      width={540}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>{t('close')}</Button>,
        <Button key="send" type="primary" disabled={!chosen.length || invalid || state.kind === 'waiting'} onClick={send} data-testid="params-send">
          {t('params.send')}
        </Button>,
      ]}
    >
      <div data-testid="params-dialog" data-state={state.kind} data-current={current.isPending ? 'loading' : shown?.reported ? 'reported' : 'stored'}>
        {!online && <Alert type="warning" showIcon title={t('params.offline')} style={{ marginBottom: 12 }} />}
        <Typography.Paragraph type="secondary" data-testid="params-source">
          {current.isPending ? (
            <Space>
              <Spin size="small" />
              {t('params.loading')}
            </Space>
          ) : shown?.reported ? (
            t('params.reported')
          ) : shown && Object.keys(shown.params).length ? (
            t('params.stored')
          ) : (
            t('params.none')
          )}
        </Typography.Paragraph>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {checks.map(([k, c]) => (
            <Space key={k} align="center" wrap>
              <label style={{ width: 170, display: 'inline-flex', gap: 8 }}>
                <input type="checkbox" checked={rows[k].on} onChange={(e) => setRows((r) => ({ ...r, [k]: { ...r[k], on: e.target.checked } }))} data-testid={`param-on-${k}`} />
                {t(`params.${k}`)}
              </label>
              <InputNumber min={0} precision={0} value={rows[k].n} disabled={!rows[k].on} onChange={(v) => setRows((r) => ({ ...r, [k]: { ...r[k], n: v } }))} data-testid={`param-n-${k}`} />
              <Select<Unit>
                value={rows[k].unit}
                disabled={!rows[k].on}
                style={{ width: 100 }}
                onChange={(u) => setRows((r) => ({ ...r, [k]: { ...r[k], unit: u } }))}
                options={(['s', 'm', 'h'] as const).map((u) => ({ value: u, label: t(`unit.${u}`) }))}
                data-testid={`param-unit-${k}`}
              />
              {c && 'problem' in c && (
                <Typography.Text type="danger">{t(`params.${c.problem}`, { min: PARAMS[k].min, max: PARAMS[k].max })}</Typography.Text>
              )}
            </Space>
          ))}
        </Space>
        <div style={{ marginTop: 16 }}>
          {state.kind === 'waiting' && (
            <Space data-testid="params-waiting">
              <Spin size="small" />
              <Typography.Text>{t('params.waiting')}</Typography.Text>
            </Space>
          )}
          {state.kind === 'failed' && <Alert type="error" showIcon title={state.text} data-testid="params-error" data-code={state.code} />}
          {state.kind === 'acked' && (
            <Alert
              type="success"
              showIcon
              data-testid="params-acked"
              title={t('params.acked')}
              description={
                <Descriptions size="small" column={1} items={Object.entries(state.result.params).map(([k, v]) => ({ key: k, label: t(`params.${k}`, { defaultValue: k }), children: <span data-testid={`param-stored-${k}`}>{v}</span> }))} />
              }
            />
          )}
        </div>
      </div>
    </Modal>
  );
}
