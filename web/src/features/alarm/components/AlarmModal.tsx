// The alarm dialog of the interrupt: every alarm waiting, one at a time, with what a dispatcher does about it.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, App, Badge, Button, Checkbox, Descriptions, Input, List, Modal, Space, Tag, Typography, type DescriptionsProps } from 'antd';
import { AimOutlined, AudioMutedOutlined, CustomerServiceOutlined, PhoneOutlined, WarningFilled } from '@ant-design/icons';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { REMARK_MAX, type SosAlarm } from '../../../shared/alarms/sos';
import type { LoneAlarm } from '../../../shared/alarms/lonework';
import { sound } from '../controller';
import { useAlarmErrorText } from '../errors';
import { mapLink } from '../hooks';
import { PositionAge } from '../../../shared/geo/PositionAge';
import { useNow } from '../../../shared/utils/useNow';
import { isRinging, pendingCount, type ItemKey } from '../../../shared/alarms/queue';
import { acknowledgeAlarm, closeAlarm, handleLoneAlarm, putAside, silence, useAlarms } from '../../../shared/alarms/store';
import { callTerminal, listenTerminal } from '../voice';
import { clock, formatZoned } from '../../../shared/time/zone';
import { SosStateTag } from './SosStateTag';

export default function AlarmModal({ child }: { child: boolean }) {
  const { t } = useTranslation('alarm');
  const queue = useAlarms((s) => s.queue);
  const sos = useAlarms((s) => s.sos);
  const lone = useAlarms((s) => s.lone);
  const alerts = useAlarms((s) => s.alerts);
  const lastAlert = useAlarms((s) => s.lastAlert);
  const ringing = useAlarms(isRinging);
  const pending = useAlarms(pendingCount);
  const soundState = useSyncExternalStore(sound.subscribe, () => sound.state);
  const [selected, setSelected] = useState<ItemKey | undefined>(lastAlert);

  // A new alert (or a re-alert) brings its alarm to the front.
  useEffect(() => {
    if (lastAlert) setSelected(lastAlert);
  }, [alerts, lastAlert]);

  const current = selected && queue.includes(selected) ? selected : queue[0];
  if (!current) return null;
  const label = (k: ItemKey) => {
    const a = k.startsWith('sos:') ? sos[k.slice(4)] : lone[k.slice(3)];
    return a ? `${a.msName || a.msId}` : k;
  };

  return (
    <Modal
      open
      centered
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={null}
      width={queue.length > 1 ? 860 : 640}
      zIndex={2000}
      title={
        <Space>
          <WarningFilled style={{ color: '#ff4d4f' }} />
          <span>{t('interrupt.title')}</span>
          {pending > 0 && <Badge count={pending} data-testid="alarm-pending" />}
        </Space>
      }
    >
      <div data-testid="alarm-modal" data-count={queue.length} data-current={current} data-ringing={ringing ? '1' : '0'}>
        {soundState === 'blocked' && <Alert type="warning" showIcon title={t('interrupt.soundBlocked')} style={{ marginBottom: 12 }} data-testid="alarm-sound-blocked" />}
        <div style={{ display: 'flex', gap: 16 }}>
          {queue.length > 1 && (
            <List
              size="small"
              bordered
              style={{ width: 220, flex: 'none', maxHeight: 420, overflow: 'auto' }}
              dataSource={queue}
              renderItem={(k) => {
                const waiting = k.startsWith('sos:') ? sos[k.slice(4)]?.state === 0 : true;
                return (
                  <List.Item
                    onClick={() => setSelected(k)}
                    style={{ cursor: 'pointer', background: k === current ? 'rgba(255,77,79,0.12)' : undefined }}
                    data-testid="alarm-queue-item"
                    data-key={k}
                  >
                    <Space size={6}>
                      <Badge status={waiting ? 'error' : 'processing'} />
                      <Typography.Text ellipsis style={{ maxWidth: 150 }}>
                        {k.startsWith('lw:') ? `${t('interrupt.loneShort')} · ` : ''}
                        {label(k)}
                      </Typography.Text>
                    </Space>
                  </List.Item>
                );
              }}
            />
          )}
          <div style={{ flex: 1, minWidth: 0 }}>
            {current.startsWith('sos:') && sos[current.slice(4)] ? (
              <SosDetail key={current} alarm={sos[current.slice(4)]!} itemKey={current} child={child} ringing={ringing} />
            ) : lone[current.slice(3)] ? (
              <LoneDetail key={current} alarm={lone[current.slice(3)]!} itemKey={current} child={child} ringing={ringing} />
            ) : null}
          </div>
        </div>
      </div>
    </Modal>
  );
}

/**
 * What both kinds of alarm detail work with: their texts, toasts, a failure's sentence, navigation, dates, and act —
 * one request at a time, its button busy meanwhile (busy names it), then the success ("done.…") or the failure.
 */
function useDetail() {
  const { t } = useTranslation('alarm');
  const errorText = useAlarmErrorText();
  const { message } = App.useApp();
  const [busy, setBusy] = useState('');
  const fail = (e: unknown) => void message.error(errorText(e));
  const act = async (what: string, fn: () => Promise<unknown>, done: string) => {
    setBusy(what);
    try {
      await fn();
      message.success(t(done));
    } catch (e) {
      fail(e);
    } finally {
      setBusy('');
    }
  };
  return { t, message, fail, busy, act, navigate: useNavigate(), dateTime: useDateTimeFormat() };
}

/** The detail's table: the terminal first, then the rows of its kind. */
function DetailTable({ alarm, items }: { alarm: { msId: string; msName: string }; items: DescriptionsProps['items'] }) {
  const { t } = useTranslation('alarm');
  const terminal = { key: 'ms', label: t('col.terminal'), children: <Typography.Text strong>{`${alarm.msName || alarm.msId} (${alarm.msId})`}</Typography.Text> };
  return <Descriptions size="small" column={1} bordered items={[terminal, ...(items ?? [])]} />;
}

/** Silences the alarm sound while it rings (both kinds of alarm). */
function SilenceButton({ ringing }: { ringing: boolean }) {
  const { t } = useTranslation('alarm');
  if (!ringing) return null;
  return (
    <Button icon={<AudioMutedOutlined />} onClick={silence} data-testid="alarm-silence">
      {t('interrupt.silence')}
    </Button>
  );
}

function SosDetail({ alarm, itemKey, child, ringing }: { alarm: SosAlarm; itemKey: ItemKey; child: boolean; ringing: boolean }) {
  const { t, fail, busy, act, navigate, dateTime } = useDetail();
  const now = useNow(1000);
  const [remark, setRemark] = useState('');
  const [remote, setRemote] = useState(false);

  const ack = () => act('ack', () => acknowledgeAlarm(alarm.id), 'done.acknowledged');
  const close = () => act('close', () => closeAlarm(alarm.id, remark.trim(), remote), remote ? 'done.remoteClosed' : 'done.closed');
  const voice = (fn: (msId: string) => Promise<void>) => () => fn(alarm.msId).catch(fail);
  const showOnMap = () => {
    if (alarm.state !== 0) putAside(itemKey);
    navigate(mapLink(child, alarm.msId, { sos: alarm.id, lat: alarm.lat, lng: alarm.lng }));
  };

  return (
    <div data-testid="alarm-detail" data-id={alarm.id} data-ms-id={alarm.msId} data-state={alarm.state}>
      <DetailTable
        alarm={alarm}
        items={[
          { key: 'type', label: t('col.type'), children: t(`type.${alarm.type}`, { defaultValue: t('type.other', { type: alarm.type }) }) },
          {
            key: 'time',
            label: t('col.time'),
            children: (
              <Space>
                {formatZoned(alarm.time, dateTime)}
                <Tag color="red">{t('interrupt.elapsed', { time: clock(now - alarm.time) })}</Tag>
              </Space>
            ),
          },
          // The server's fix time: a last known position sent on with the SOS keeps its own age (issue 32).
          { key: 'pos', label: t('col.position'), children: <PositionAge lat={alarm.lat} lng={alarm.lng} at={alarm.fixTime} /> },
          { key: 'state', label: t('col.state'), children: <SosStateTag state={alarm.state} /> },
          ...(alarm.responder ? [{ key: 'resp', label: t('col.responder'), children: `${alarm.responderName || alarm.responder} · ${formatZoned(alarm.responseTime, dateTime)}` }] : []),
        ]}
      />
      <Space wrap style={{ marginTop: 12 }}>
        {alarm.state === 0 && (
          <Button type="primary" danger size="large" loading={busy === 'ack'} onClick={ack} data-testid="alarm-ack">
            {t('interrupt.ack')}
          </Button>
        )}
        <Button icon={<AimOutlined />} onClick={showOnMap} data-testid="alarm-map">
          {t('interrupt.map')}
        </Button>
        <Button icon={<PhoneOutlined />} onClick={voice(callTerminal)} data-testid="alarm-call">
          {t('interrupt.call')}
        </Button>
        <Button icon={<CustomerServiceOutlined />} onClick={voice(listenTerminal)} data-testid="alarm-listen">
          {t('interrupt.listen')}
        </Button>
        <SilenceButton ringing={ringing} />
        {alarm.state !== 0 && (
          <Button onClick={() => putAside(itemKey)} data-testid="alarm-aside">
            {t('interrupt.aside')}
          </Button>
        )}
      </Space>
      <div style={{ marginTop: 16 }}>
        <Input.TextArea
          rows={2}
          maxLength={REMARK_MAX}
          showCount
          placeholder={t('interrupt.remarkPlaceholder')}
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          data-testid="alarm-remark"
        />
        <Space style={{ marginTop: 8, justifyContent: 'space-between', width: '100%' }} wrap>
          <Checkbox checked={remote} onChange={(e) => setRemote(e.target.checked)} data-testid="alarm-remote">
            {t('interrupt.remote')}
          </Checkbox>
          <Button danger loading={busy === 'close'} onClick={close} data-testid="alarm-close">
            {t('interrupt.close')}
          </Button>
        </Space>
      </div>
    </div>
  );
}

function LoneDetail({ alarm, itemKey, child, ringing }: { alarm: LoneAlarm; itemKey: ItemKey; child: boolean; ringing: boolean }) {
  const { t, message, fail, busy, act, navigate, dateTime } = useDetail();
  const [remark, setRemark] = useState('');
  const handle = () => (remark.trim() ? act('handle', () => handleLoneAlarm(alarm.id, remark.trim()), 'done.handled') : message.warning(t('interrupt.remarkRequired')));
  return (
    <div data-testid="alarm-detail" data-lone-id={alarm.id} data-ms-id={alarm.msId} data-reason={alarm.reason}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('interrupt.loneTitle')}
      </Typography.Title>
      <DetailTable
        alarm={alarm}
        items={[
          { key: 'reason', label: t('col.reason'), children: <Tag color="volcano">{t(`lonework:reason.${alarm.reason}`)}</Tag> },
          { key: 'time', label: t('col.time'), children: formatZoned(alarm.alarmTime, dateTime) },
        ]}
      />
      <Input.TextArea
        rows={2}
        maxLength={REMARK_MAX}
        showCount
        style={{ marginTop: 12 }}
        placeholder={t('interrupt.handlePlaceholder')}
        value={remark}
        onChange={(e) => setRemark(e.target.value)}
        data-testid="alarm-lw-remark"
      />
      <Space wrap style={{ marginTop: 12 }}>
        <Button type="primary" danger loading={busy === 'handle'} onClick={handle} data-testid="alarm-lw-handle">
          {t('interrupt.handle')}
        </Button>
        <Button icon={<AimOutlined />} onClick={() => { putAside(itemKey); navigate(mapLink(child, alarm.msId)); }} data-testid="alarm-map">
          {t('interrupt.map')}
        </Button>
        <Button icon={<PhoneOutlined />} onClick={() => callTerminal(alarm.msId).catch(fail)} data-testid="alarm-call">
          {t('interrupt.call')}
        </Button>
        <Button onClick={() => { putAside(itemKey); navigate(child ? '/lonework-child' : '/lonework'); }} data-testid="alarm-lw-open">
          {t('interrupt.openLonework')}
        </Button>
        <SilenceButton ringing={ringing} />
        <Button onClick={() => putAside(itemKey)} data-testid="alarm-lw-aside">
          {t('interrupt.aside')}
        </Button>
      </Space>
    </div>
  );
}
