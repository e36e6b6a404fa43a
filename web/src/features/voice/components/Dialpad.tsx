import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Input } from 'antd';
import { PhoneOutlined } from '@ant-design/icons';
import { useErrorText } from '../../../shared/errorText';
import { DIAL_KEYS, dialable, routeOf } from '../dial';
import './dialpad.css';

/**
 * The voice dock's dial pad: a number typed or keyed in (0–9, *, #) and called through the route that takes it
 * (dial.ts: an account's 8-digit id, else a phone number through the customer's SIP trunk). The call then shows in
 * the dock like one from the terminal menu.
 */
export function Dialpad() {
  const { t } = useTranslation('voice');
  const { message } = App.useApp();
  const errorText = useErrorText('voice');
  const [number, setNumber] = useState('');
  const route = routeOf(number);

  const call = () =>
    route?.call(number).then(
      () => {
        message.success(t('single.calling'));
        setNumber('');
      },
      (e: unknown) => message.error(errorText(e)),
    );

  return (
    <div className="vdock-dialpad" data-testid="dialpad">
      <div className="vdock-muted">{t('dialpad.title')}</div>
      <Input
        size="small"
        value={number}
        onChange={(e) => setNumber(dialable(e.target.value))}
        onPressEnter={() => void call()}
        placeholder={t('dialpad.placeholder')}
        aria-label={t('dialpad.number')}
        allowClear
        inputMode="tel"
        data-testid="dialpad-number"
      />
      <div className="vdock-dialpad-keys">
        {DIAL_KEYS.map((k) => (
          <Button key={k} size="small" onClick={() => setNumber((n) => n + k)} data-testid={`dialpad-key-${k}`}>
            {k}
          </Button>
        ))}
      </div>
      {number && !route && <div className="vdock-muted" data-testid="dialpad-hint">{t('dialpad.hint')}</div>}
      <Button size="small" type="primary" block icon={<PhoneOutlined />} disabled={!route} onClick={() => void call()} data-testid="dialpad-call">
        {t('dialpad.call')}
      </Button>
    </div>
  );
}
