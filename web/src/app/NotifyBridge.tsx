import { App } from 'antd';
import { useEffect } from 'react';
import { setNotifySink } from '../shared/notify';

export function NotifyBridge() {
  const { message } = App.useApp();
  useEffect(() => setNotifySink((kind, text) => void message[kind](text)), [message]);
  return null;
}
