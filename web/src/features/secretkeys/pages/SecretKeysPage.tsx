// /secret-keys and /secret-keys-child: the customer's key ring (ADR 0021). The current key is the one terminals
// receive; making another key current rotates it at once for every online terminal.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Space, Switch, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useErrorText } from '../../../shared/errorText';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { KEY_EVENTS, secretKeyApi, secretKeyKeys, type SecretKey } from '../api';
import { creatorText, maskKey } from '../format';
import { useSession } from '../../../shared/session';
import { useDirectory } from '../../../shared/directory/store';
import { KeyDialog } from '../components/KeyDialog';
import { QueryTable } from '../../../shared/table/QueryTable';

export default function SecretKeysPage() {
  const { t } = useTranslation('secretkeys');
  const me = useSession((s) => s.session?.userInfo);
  const terminals = useDirectory((s) => s.terminals);
  const nameOf = (id: string) => (id === me?.msId ? me.msName : terminals[id]?.name);
  const { message } = App.useApp();
  const dateTime = useDateTimeFormat();
  const errorText = useErrorText('secretkeys');
  const query = useQuery({ queryKey: secretKeyKeys.list(), queryFn: secretKeyApi.list, staleTime: 0 });
  const { refetch } = query;
  const [dialog, setDialog] = useState<{ key: SecretKey | null } | null>(null);
  const [reveal, setReveal] = useState(false);

  useLiveQueries(KEY_EVENTS, secretKeyKeys.all);

  const fail = (e: unknown) => message.error(errorText(e));
  const act = (p: Promise<unknown>, done: string) =>
    p.then(() => {
      message.success(t(done));
      void refetch();
    }, fail);

  const rows = query.data?.list ?? [];
  const current = rows.find((k) => k.current);

  return (
    <div className="page-pad" data-testid="secret-keys-page" data-socket={status}>
      <Card size="small" title={t('title')}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        {!query.isLoading && !current && <Alert style={{ marginBottom: 12 }} type="warning" showIcon title={t('noCurrent')} data-testid="keys-no-current" />}
        <Space wrap style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ key: null })} data-testid="key-new">
            {t('actions.new')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
            {t('actions.reload')}
          </Button>
          <Space>
            <Switch size="small" checked={reveal} onChange={setReveal} data-testid="keys-reveal" />
            {t('actions.reveal')}
          </Space>
        </Space>
        <QueryTable<SecretKey>
          query={query}
          rows={rows}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          row={(k) => ({ 'data-testid': 'key-row', 'data-id': k.id, 'data-name': k.name, 'data-current': k.current ? '1' : '0' })}
          columns={[
            { key: 'name', title: t('col.name'), dataIndex: 'name', width: 200 },
            {
              key: 'key',
              title: t('col.key'),
              render: (_, k) => (
                <Typography.Text code copyable={reveal ? { text: k.secretKey } : false} data-testid="key-text">
                  {reveal ? k.secretKey : maskKey(k.secretKey)}
                </Typography.Text>
              ),
            },
            {
              key: 'current',
              title: t('col.current'),
              width: 110,
              // The success text colour is one of the tokens made readable on every skin (ADR 0015); a green tag's is not.
              render: (_, k) =>
                k.current ? (
                  <Typography.Text type="success" strong>
                    <KeyOutlined /> {t('current')}
                  </Typography.Text>
                ) : null,
            },
            { key: 'rotated', title: t('col.rotated'), width: 170, render: (_, k) => formatZoned(k.rotateTime, dateTime) },
            { key: 'created', title: t('col.created'), width: 170, render: (_, k) => formatZoned(k.createTime, dateTime) },
            { key: 'by', title: t('col.createBy'), render: (_, k) => creatorText(k.createBy, nameOf), width: 180, ellipsis: true },
            {
              key: 'actions',
              title: t('col.actions'),
              width: 200,
              render: (_, k) => (
                <Space size={4}>
                  {!k.current && (
                    <Popconfirm title={t('confirm.rotate', { name: k.name })} onConfirm={() => act(secretKeyApi.update(k.id, { current: true }), 'done.rotated')}>
                      <Button size="small" data-testid="key-make-current">{t('actions.makeCurrent')}</Button>
                    </Popconfirm>
                  )}
                  <Tooltip title={t('actions.edit')}>
                    <Button size="small" icon={<EditOutlined />} aria-label={t('actions.edit')} onClick={() => setDialog({ key: k })} />
                  </Tooltip>
                  <Popconfirm title={k.current ? t('confirm.deleteCurrent') : t('confirm.delete', { name: k.name })} onConfirm={() => act(secretKeyApi.remove(k.id), 'done.deleted')}>
                    <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} data-testid="key-delete" />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <KeyDialog
        open={!!dialog}
        editing={dialog?.key ?? null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          message.success(t('done.saved'));
          void refetch();
        }}
      />
    </div>
  );
}
