// The mute list (spec §6, account type "1"): whom a listener — this dispatcher or a terminal — does not hear.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, List, Modal, Segmented, Space, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { useDirectory } from '../../../shared/directory/store';
import { useSession } from '../../../shared/session';
import { useErrorText } from '../../../shared/errorText';
import { toolsApi, toolsKeys } from '../api';

export function MuteDialog({ cid, onClose }: { cid: string; onClose: () => void }) {
  const { t } = useTranslation('terminaltools');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const me = useSession((s) => s.session?.userInfo.msId) ?? '';
  const name = useDirectory((s) => s.terminals[cid]?.name) ?? cid;
  const [listener, setListener] = useState<string>(me);
  const [pick, setPick] = useState<string>();
  const q = useQuery({ queryKey: toolsKeys.mutes(listener), queryFn: () => toolsApi.mutes(listener) });
  const list = q.data?.list ?? [];
  const done = () => qc.invalidateQueries({ queryKey: toolsKeys.mutes(listener) });
  const errorText = useErrorText('terminaltools');
  const fail = (e: unknown) => message.error(errorText(e));
  const add = useMutation({ mutationFn: (muteId: string) => toolsApi.mute(muteId, listener), onSuccess: () => (setPick(undefined), done()), onError: fail });
  const remove = useMutation({ mutationFn: (id: string) => toolsApi.unmute(id), onSuccess: done, onError: fail });
  const muted = new Set(list.map((m) => m.muteId));

  return (
    <Modal open title={t('mute.title')} onCancel={onClose} footer={null} width={520} destroyOnHidden>
      <div data-testid="mute-dialog" data-listener={listener} data-count={list.length}>
        <Segmented
          block
          value={listener}
          onChange={(v) => setListener(String(v))}
          options={[
            { value: me, label: t('mute.mine') },
            { value: cid, label: t('mute.terminals', { name }) },
          ]}
          style={{ marginBottom: 12 }}
          data-testid="mute-listener"
        />
        <Typography.Paragraph type="secondary">{listener === me ? t('mute.mineHelp') : t('mute.terminalHelp', { name })}</Typography.Paragraph>
        <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
          <TerminalPicker value={pick} onChange={setPick} placeholder={t('mute.pick')} style={{ flex: 1 }} testId="mute-pick" />
          <Button
            type="primary"
            disabled={!pick || pick === listener || muted.has(pick)}
            loading={add.isPending}
            onClick={() => pick && add.mutate(pick)}
            data-testid="mute-add"
          >
            {t('mute.add')}
          </Button>
        </Space.Compact>
        <List
          size="small"
          bordered
          loading={q.isLoading}
          locale={{ emptyText: t('mute.empty') }}
          dataSource={list}
          renderItem={(m) => (
            <List.Item
              data-testid="mute-row"
              data-mute-id={m.muteId}
              actions={[<Button key="x" size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('mute.remove')} loading={remove.isPending && remove.variables === m.id} onClick={() => remove.mutate(m.id)} data-testid="mute-remove" />]}
            >
              {m.muteName || m.muteId} ({m.muteId})
            </List.Item>
          )}
        />
      </div>
    </Modal>
  );
}
