import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Drawer, Popconfirm, Space, Switch, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { errorCode, messageApi, messageKeys, type Tone } from '../api';
import { useCodeText } from '../codes';
import { me } from '../store';
import { formatSize } from '../validation';
import { ToneEditDialog } from './ToneEditDialog';
import { ToneSendDialog } from './ToneSendDialog';
import { QueryTable } from '../../../shared/table/QueryTable';

/** The tone library: list, add, edit, delete, and send a tone. */
export function ToneDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('message');
  const codeText = useCodeText();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [mine, setMine] = useState(false);
  const [editing, setEditing] = useState<Tone | 'new' | null>(null);
  const [sending, setSending] = useState<Tone | null>(null);
  const q = useQuery({ queryKey: messageKeys.tones(mine), queryFn: () => messageApi.tones(mine ? me() : undefined) });

  const remove = async (tone: Tone) => {
    try {
      await messageApi.deleteTone(tone.id);
      await qc.invalidateQueries({ queryKey: messageKeys.tones.all });
      message.success(t('tones.deleted'));
    } catch (e) {
      message.error(codeText(errorCode(e)));
    }
  };

  return (
    <Drawer open={open} onClose={onClose} title={t('tones.title')} size={720} data-testid="tone-drawer">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="tone-add">
          {t('tones.add')}
        </Button>
        <label>
          <Switch size="small" checked={mine} onChange={setMine} /> {t('tones.mine')}
        </label>
      </Space>
      <QueryTable<Tone>
        query={q}
        pagination={false}
        locale={{ emptyText: t('tones.empty') }}
        row={(r) => ({ 'data-testid': 'tone-row', 'data-id': r.id, 'data-name': r.name })}
        columns={[
          { key: 'icon', title: t('tones.image'), width: 60, render: (_, r) => (r.iconUrl ? <img src={r.iconUrl} alt="" className="tone-icon" /> : null) },
          { key: 'name', title: t('tones.name'), render: (_, r) => <span title={r.name}>{trimText(r.name, 24)}</span> },
          {
            key: 'sound',
            title: t('tones.sound'),
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                <audio src={r.fileUrl || r.audioUrl} controls preload="none" className="tone-audio" />
                {r.fileName && (
                  <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                    {trimText(r.fileName, 28)} {r.fileSize ? formatSize(r.fileSize) : ''}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { key: 'sort', title: t('tones.sort'), dataIndex: 'sort', width: 60 },
          {
            key: 'actions',
            title: '',
            width: 120,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<SendOutlined />} onClick={() => setSending(r)} data-testid="tone-send" aria-label={t('send')} />
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(r)} data-testid="tone-edit" aria-label={t('tones.edit')} />
                <Popconfirm title={t('tones.confirmDelete', { name: r.name })} onConfirm={() => void remove(r)} okText={t('delete')} cancelText={t('close')}>
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="tone-delete" aria-label={t('delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <ToneEditDialog tone={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
      {sending && <ToneSendDialog tone={sending} onClose={() => setSending(null)} />}
    </Drawer>
  );
}
