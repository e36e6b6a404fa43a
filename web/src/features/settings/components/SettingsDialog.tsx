import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Input, Modal, Radio, Select, Slider, Switch, Tabs } from 'antd';
import { LANGUAGES, LANGUAGE_NAMES } from '../../../i18n/languages';
import { AUDIO_PRIORITIES, MAP_TYPES, PRIMARY_COLORS, PRIMARY_HEX, THEMES, useSettings, type Settings } from '../../../shared/settings';
import { NOTICE_SOUND_CHOICES, playNotice, type NoticeSound } from '../../../shared/sound';

type Values = Omit<Settings, 'viewSize'>;

/** Captures one key press as a KeyboardEvent.code (e.g. "Space", "KeyM"). */
function KeyInput({ value, onChange, id }: { value?: string; onChange?: (v: string) => void; id?: string }) {
  return (
    <Input
      id={id}
      readOnly
      value={value}
      onKeyDown={(e) => {
        e.preventDefault();
        if (e.code !== 'Tab') onChange?.(e.code);
      }}
      style={{ width: 160 }}
    />
  );
}

export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  const [form] = Form.useForm<Values>();
  const priority = Form.useWatch('audioPriority', form);

  useEffect(() => {
    if (open) form.setFieldsValue(useSettings.getState());
  }, [open, form]);

  const save = async () => {
    const v = await form.validateFields();
    settings.update(v);
    onClose();
  };

  const volume = (name: keyof Settings) => (
    <Form.Item name={name} label={t(`volume.${name}`)}>
      <Slider min={0} max={100} />
    </Form.Item>
  );

  return (
    <Modal open={open} title={t('title')} onCancel={onClose} onOk={save} width={620} destroyOnHidden forceRender data-testid="settings-dialog">
      <Form form={form} layout="horizontal" labelCol={{ span: 10 }} wrapperCol={{ span: 14 }}>
        <Tabs
          items={[
            {
              key: 'general',
              label: t('tabs.general'),
              forceRender: true,
              children: (
                <>
                  <Form.Item name="language" label={t('language')}>
                    <Select options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} data-testid="settings-language" />
                  </Form.Item>
                  <Form.Item name="mapType" label={t('mapType.label')}>
                    <Radio.Group options={MAP_TYPES.map((m) => ({ value: m, label: t(`mapType.${m}`) }))} />
                  </Form.Item>
                  <Form.Item
                    name="audioPriority"
                    label={t('audioPriority.label')}
                    extra={
                      priority && (
                        <span data-testid="audio-priority-help" data-choice={priority}>
                          {t(`audioPriority.help.${priority}`)} {t('audioPriority.help.always')}
                        </span>
                      )
                    }
                  >
                    <Select
                      data-testid="settings-audio-priority"
                      optionRender={(o) => (
                        <div title={t(`audioPriority.help.${String(o.value)}`)}>
                          {o.label}
                        </div>
                      )}
                      options={AUDIO_PRIORITIES.map((p) => ({ value: p, label: t(`audioPriority.${p}`) }))}
                    />
                  </Form.Item>
                  <Form.Item name="hideOffline" label={t('hideOffline')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                  <Form.Item name="hideDispatcher" label={t('hideDispatcher')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                  <Form.Item name="muteStatus" label={t('muteStatus')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                </>
              ),
            },
            {
              key: 'skin',
              label: t('tabs.skin'),
              forceRender: true,
              children: (
                <>
                  <Form.Item name="theme" label={t('skin.theme')}>
                    <Radio.Group optionType="button" options={THEMES.map((s) => ({ value: s, label: t(`skin.${s}`) }))} data-testid="settings-theme" />
                  </Form.Item>
                  <Form.Item name="primaryColor" label={t('skin.primary')}>
                    <Radio.Group>
                      {PRIMARY_COLORS.map((c) => (
                        <Radio.Button key={c} value={c} data-testid={`primary-${c}`}>
                          <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: PRIMARY_HEX[c], marginRight: 6 }} />
                          {t(`skin.colors.${c}`)}
                        </Radio.Button>
                      ))}
                    </Radio.Group>
                  </Form.Item>
                </>
              ),
            },
            {
              key: 'sounds',
              label: t('tabs.sounds'),
              forceRender: true,
              children: (
                <>
                  {volume('volume')}
                  {volume('alarmVolume')}
                  {volume('noticeVolume')}
                  {volume('videoCallVolume')}
                  {(['alarm', 'message', 'callTone'] as const).map((s) => (
                    <Form.Item key={s} name={['sounds', s]} label={t(`sounds.${s}`)} valuePropName="checked">
                      <Switch />
                    </Form.Item>
                  ))}
                  {/* Which sound a notice (a new message) rings; choosing one plays it at the notice volume. */}
                  <Form.Item name="noticeSound" label={t('sounds.notice')}>
                    <Select
                      data-testid="settings-notice-sound"
                      onChange={(v: NoticeSound) => playNotice(v, form.getFieldValue('noticeVolume') ?? settings.noticeVolume)}
                      options={NOTICE_SOUND_CHOICES.map((c) => ({ value: c, label: t(`noticeSounds.${c}`) }))}
                    />
                  </Form.Item>
                </>
              ),
            },
            {
              key: 'keys',
              label: t('tabs.keys'),
              forceRender: true,
              children: (
                <>
                  {(['ptt', 'hangup', 'mute'] as const).map((k) => (
                    <Form.Item key={k} name={['quickKeys', k]} label={t(`keys.${k}`)} extra={k === 'ptt' ? t('keys.hint') : undefined}>
                      <KeyInput />
                    </Form.Item>
                  ))}
                </>
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
