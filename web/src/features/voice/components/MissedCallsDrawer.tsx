import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Drawer, Empty, List, Popconfirm, Space, Tag } from 'antd';
import { DeleteOutlined, PhoneOutlined } from '@ant-design/icons';
import dayjs from '../../../shared/utils/dayjs';
import { useVoice } from '../../../shared/voice/store';
import { voiceApi, type MissedCall } from '../api';
import { consoleVoice } from '../../../shared/voice/console';
import { voiceErrorText } from '../../../shared/voice/errors';

/** The missed-calls list (spec §2, log 107): newest first, call back, clear one or all. */
export function MissedCallsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('voice');
  const { message } = App.useApp();
  const live = useVoice((s) => s.missed.length);
  const [list, setList] = useState<MissedCall[]>([]);
  const [loading, setLoading] = useState(false);

  const load = async () => {
    setLoading(true);
    try {
      setList((await voiceApi.missed()).list ?? []);
    } catch (e) {
      message.error(voiceErrorText(t, e));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (open) void load();
  }, [open, live]); // eslint-disable-line react-hooks/exhaustive-deps

  const act = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) message.success(t(ok));
    } catch (e) {
      message.error(voiceErrorText(t, e));
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('missed.title')}
      size={380}
      extra={
        list.length > 0 && (
          <Popconfirm title={t('missed.clearAllConfirm')} onConfirm={() => act(async () => (await voiceApi.clearMissed(), useVoice.setState({ missed: [] }), load()))}>
            <Button size="small" danger icon={<DeleteOutlined />} data-testid="missed-clear-all">
              {t('missed.clearAll')}
            </Button>
          </Popconfirm>
        )
      }
    >
      <List
        loading={loading}
        dataSource={list}
        locale={{ emptyText: <Empty description={t('missed.none')} /> }}
        data-testid="missed-list"
        renderItem={(m) => (
          <List.Item
            data-testid="missed-row"
            data-ms-id={m.msId}
            actions={[
              <Button key="call" size="small" icon={<PhoneOutlined />} onClick={() => act(() => consoleVoice().invite('single', { msId: m.msId }), 'single.calling')} aria-label={t('missed.callBack')} />,
              <Button key="del" size="small" icon={<DeleteOutlined />} onClick={() => act(async () => (await voiceApi.clearMissed(m.id), load()))} aria-label={t('missed.delete')} />,
            ]}
          >
            <List.Item.Meta
              title={m.msName || m.msId}
              description={
                <Space size={4} wrap>
                  <span>{dayjs(m.time).format('YYYY-MM-DD HH:mm:ss')}</span>
                  <Tag>{t(`status.${m.status}`, { defaultValue: String(m.status) })}</Tag>
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
