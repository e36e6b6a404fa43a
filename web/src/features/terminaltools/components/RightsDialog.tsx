// Voice and recording rights of a terminal (spec §6), the customer's recording time, and fresh TURN credentials
// for a terminal whose media does not get through (/ds/turn/send, docs/adr/0022).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Descriptions, Divider, InputNumber, Modal, Progress, Space, Switch, Typography } from 'antd';
import { useDirectory } from '../../../shared/directory/store';
import { errorCode } from '../../../shared/errors';
import { useErrorText } from '../../../shared/errorText';
import { clock } from '../../../shared/time/zone';
import { toolsApi, toolsKeys, type Rights } from '../api';

export function RightsDialog({ cid, onClose }: { cid: string; onClose: () => void }) {
  const { t } = useTranslation('terminaltools');
  const { message } = App.useApp();
  const errorText = useErrorText('terminaltools');
  const qc = useQueryClient();
  const name = useDirectory((s) => s.terminals[cid]?.name) ?? cid;
  const rights = useQuery({ queryKey: toolsKeys.rights(cid), queryFn: async () => (await toolsApi.rights([cid])).list[0] });
  const rt = useQuery({ queryKey: toolsKeys.recordingTime(), queryFn: toolsApi.recordingTime });
  const [minutes, setMinutes] = useState<number | null>(null);
  const [turn, setTurn] = useState<{ state: 'waiting' } | { state: 'sent'; url: string } | { state: 'failed'; code: string; text: string } | null>(null);
  const fail = (e: unknown) => message.error(errorText(e));
  const set = useMutation({
    mutationFn: (patch: Partial<Pick<Rights, 'voice' | 'record'>>) => toolsApi.setRights(cid, patch),
    onSuccess: (r) => qc.setQueryData(toolsKeys.rights(cid), r.list[0]),
    onError: fail,
  });
  const setTime = useMutation({
    mutationFn: (m: number) => toolsApi.setRecordingTime(m),
    onSuccess: (r) => qc.setQueryData(toolsKeys.recordingTime(), r),
    onError: fail,
  });
  const sendTurn = async () => {
    setTurn({ state: 'waiting' });
    try {
      const r = await toolsApi.turnSend(cid);
      setTurn({ state: 'sent', url: r.iceServers[0]?.urls[0] ?? '' });
    } catch (e) {
      setTurn({ state: 'failed', code: errorCode(e), text: errorText(e) });
    }
  };
  const r = rights.data;
  const time = rt.data;

  return (
    <Modal open title={t('rights.title', { name })} onCancel={onClose} footer={null} width={520} destroyOnHidden>
      <div data-testid="rights-dialog" data-voice={r ? (r.voice ? '1' : '0') : ''} data-record={r ? (r.record ? '1' : '0') : ''}>
        <Descriptions
          size="small"
          column={1}
          items={[
            {
              key: 'voice',
              label: t('rights.voice'),
              children: <Switch checked={!!r?.voice} loading={rights.isLoading || set.isPending} onChange={(v) => set.mutate({ voice: v })} data-testid="rights-voice" />,
            },
            {
              key: 'record',
              label: t('rights.record'),
              children: <Switch checked={!!r?.record} loading={rights.isLoading || set.isPending} onChange={(v) => set.mutate({ record: v })} data-testid="rights-record" />,
            },
          ]}
        />
        <Typography.Paragraph type="secondary">{t('rights.help')}</Typography.Paragraph>
        <Divider plain>{t('rights.recordingTime')}</Divider>
        <div data-testid="recording-time" data-limited={time?.limited ? '1' : '0'} data-remaining={time?.remainingMs ?? ''}>
          {time && !time.limited && <Typography.Text>{t('rights.unlimited', { used: clock(time.usedMs) })}</Typography.Text>}
          {time?.limited && (
            <>
              <Progress percent={time.quotaMs ? Math.round((time.usedMs / time.quotaMs) * 100) : 100} status={time.remainingMs <= 0 ? 'exception' : 'normal'} />
              <Typography.Text type={time.remainingMs <= 0 ? 'danger' : undefined}>
                {t('rights.remaining', { remaining: clock(time.remainingMs), quota: clock(time.quotaMs) })}
              </Typography.Text>
            </>
          )}
          <Space style={{ marginTop: 8 }} wrap>
            <InputNumber min={-1} precision={0} value={minutes} onChange={setMinutes} placeholder={t('rights.minutes')} data-testid="recording-minutes" />
            <Button disabled={minutes === null} loading={setTime.isPending} onClick={() => minutes !== null && setTime.mutate(minutes)} data-testid="recording-set">
              {t('rights.setTime')}
            </Button>
            <Typography.Text type="secondary">{t('rights.minutesHelp')}</Typography.Text>
          </Space>
        </div>
        <Divider plain>{t('turn.title')}</Divider>
        <Typography.Paragraph type="secondary">{t('turn.help')}</Typography.Paragraph>
        <Button onClick={sendTurn} loading={turn?.state === 'waiting'} data-testid="turn-send">
          {t('turn.send')}
        </Button>
        {turn?.state === 'sent' && <Alert style={{ marginTop: 8 }} type="success" showIcon title={t('turn.sent', { url: turn.url })} data-testid="turn-sent" />}
        {turn?.state === 'failed' && (
          <Alert style={{ marginTop: 8 }} type="error" showIcon title={turn.text} data-testid="turn-error" data-code={turn.code} />
        )}
      </div>
    </Modal>
  );
}
