// /theme and /theme-child: the custom theme of each of the customer's host names (account type "1"; ADR 0021).
// Every skin field of spec §3 with a live preview; logos are checked here (spec §5) and again by the server.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, ColorPicker, Empty, Form, Input, Popconfirm, Row, Select, Space, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, SaveOutlined, UploadOutlined } from '@ant-design/icons';
import { ApiError } from '../../../shared/http/client';
import { brandingApi } from '../../../shared/branding/api';
import { applyBrandingRecord } from '../../../shared/branding/loader';
import { blankTheme, themeApi, themeKeys, type Theme } from '../api';
import { fileBytes, logoProblem, pngDataUrl, pngInfo } from '../logo';
import { ThemePreview } from '../components/ThemePreview';
import '../components/theme.css';

type ColourField = 'themeColor' | 'tabColor' | 'subThemeColor' | 'weightThemeColor' | 'callingColor' | 'loginFrameColor';
const COLOUR_FIELDS: ColourField[] = ['themeColor', 'tabColor', 'subThemeColor', 'weightThemeColor', 'callingColor', 'loginFrameColor'];

export default function ThemePage() {
  const { t } = useTranslation('theme');
  const { message } = App.useApp();
  const hosts = useQuery({ queryKey: themeKeys.hosts(), queryFn: themeApi.hosts });
  const themes = useQuery({ queryKey: themeKeys.themes(), queryFn: () => themeApi.find() });
  const [host, setHost] = useState<string | undefined>();
  const [form, setForm] = useState<Theme | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [logoNote, setLogoNote] = useState<{ field: 'logoUrl' | 'miniLogoUrl'; text: string } | null>(null);

  // The host the console is open at first, when it is one of the customer's; else the first.
  useEffect(() => {
    if (host || !hosts.data?.length) return;
    setHost(hosts.data.find((h) => h.hostname === location.hostname)?.hostname ?? hosts.data[0]!.hostname);
  }, [hosts.data, host]);
  const stored = useMemo(() => themes.data?.find((x) => x.hostname === host), [themes.data, host]);
  useEffect(() => {
    if (host) setForm(stored ? { ...stored } : blankTheme(host));
    setError(null);
    setLogoNote(null);
  }, [host, stored]);

  const set = <K extends keyof Theme>(k: K, v: Theme[K]) => setForm((f) => (f ? { ...f, [k]: v } : f));
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.code : 'other');
  const refresh = async (h: string) => {
    await Promise.all([hosts.refetch(), themes.refetch()]);
    // The console open at this host shows the new look at once.
    if (h === location.hostname) applyBrandingRecord(h, await brandingApi.theme(h));
  };

  const pickLogo = async (field: 'logoUrl' | 'miniLogoUrl', file: File) => {
    const bytes = await fileBytes(file);
    const problem = logoProblem(bytes, field === 'miniLogoUrl');
    if (problem) {
      setLogoNote({ field, text: t(`logo.${problem}`) });
      return;
    }
    setLogoNote(pngInfo(bytes)?.transparent ? null : { field, text: t('logo.opaque') });
    set(field, pngDataUrl(bytes));
  };

  const save = async () => {
    if (!form) return;
    setBusy(true);
    setError(null);
    try {
      await themeApi.save(form);
      message.success(t('done.saved', { host: form.hostname }));
      await refresh(form.hostname);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!form) return;
    try {
      await themeApi.remove(form.hostname);
      message.success(t('done.deleted', { host: form.hostname }));
      await refresh(form.hostname);
    } catch (e) {
      fail(e);
    }
  };

  if (hosts.isSuccess && hosts.data.length === 0) {
    return (
      <div className="page-pad" data-testid="theme-page">
        <Card size="small" title={t('title')}>
          <Empty description={t('noHosts')} />
        </Card>
      </div>
    );
  }

  const logoField = (field: 'logoUrl' | 'miniLogoUrl') => (
    <Form.Item label={t(`field.${field}`)} extra={t(field === 'logoUrl' ? 'logo.rule' : 'logo.miniRule')}
      validateStatus={logoNote?.field === field && !form?.[field] ? 'error' : undefined}
      help={logoNote?.field === field ? <span data-testid={`${field}-note`}>{logoNote.text}</span> : undefined}>
      <Space>
        {form?.[field] ? <img src={form[field]} alt="" className={field === 'logoUrl' ? 'theme-preview-logo' : 'theme-preview-mini'} /> : <Tag>{t('logo.none')}</Tag>}
        <span data-testid={`${field}-picker`}>
          <Upload
            accept="image/png"
            showUploadList={false}
            beforeUpload={(f) => {
              void pickLogo(field, f);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('logo.choose')}</Button>
          </Upload>
        </span>
        {form?.[field] && <Button onClick={() => set(field, '')}>{t('logo.remove')}</Button>}
      </Space>
    </Form.Item>
  );

  return (
    <div className="page-pad" data-testid="theme-page">
      <Card size="small" title={t('title')}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Space wrap style={{ marginBottom: 12 }}>
          <span>{t('field.hostname')}</span>
          <Select
            style={{ minWidth: 240 }}
            value={host}
            onChange={setHost}
            loading={hosts.isLoading}
            options={(hosts.data ?? []).map((h) => ({ value: h.hostname, label: `${h.hostname}${h.hasTheme ? '' : ` (${t('noTheme')})`}` }))}
            data-testid="theme-host"
          />
          {stored ? (
            <Typography.Text type="success" strong data-testid="theme-stored">
              {t('themed')}
            </Typography.Text>
          ) : (
            <Tag>{t('noTheme')}</Tag>
          )}
        </Space>
        {form && (
          <Row gutter={24}>
            <Col xs={24} lg={12}>
              <Form layout="vertical">
                <Form.Item label={t('field.sysName')}>
                  <Input value={form.sysName} maxLength={64} onChange={(e) => set('sysName', e.target.value)} data-testid="theme-sysName" />
                </Form.Item>
                <Row gutter={12}>
                  {COLOUR_FIELDS.map((f) => (
                    <Col span={12} key={f}>
                      <Form.Item label={t(`field.${f}`)} extra={t(`help.${f}`)}>
                        <Space>
                          <ColorPicker value={form[f] || undefined} allowClear onChange={(c) => set(f, c.toHexString())} onClear={() => set(f, '')} />
                          <Input
                            value={form[f]}
                            onChange={(e) => set(f, e.target.value.trim())}
                            style={{ width: 110, fontFamily: 'monospace' }}
                            placeholder="#rrggbb"
                            aria-label={t(`field.${f}`)}
                            data-testid={`theme-${f}`}
                          />
                        </Space>
                      </Form.Item>
                    </Col>
                  ))}
                </Row>
                {logoField('logoUrl')}
                {logoField('miniLogoUrl')}
                <Form.Item label={t('field.copyright')}>
                  <Input value={form.copyright} maxLength={128} onChange={(e) => set('copyright', e.target.value)} data-testid="theme-copyright" />
                </Form.Item>
              </Form>
              {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t(`codes.${error}`, { defaultValue: t('codes.other', { code: error }) })} data-testid="theme-error" data-code={error} />}
              <Space>
                <Button type="primary" icon={<SaveOutlined />} loading={busy} onClick={() => void save()} data-testid="theme-save">
                  {t('actions.save')}
                </Button>
                <Popconfirm title={t('confirm.delete', { host: form.hostname })} onConfirm={() => void remove()} disabled={!stored}>
                  <Button danger icon={<DeleteOutlined />} disabled={!stored} data-testid="theme-delete">
                    {t('actions.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            </Col>
            <Col xs={24} lg={12}>
              <ThemePreview theme={form} />
            </Col>
          </Row>
        )}
      </Card>
    </div>
  );
}
