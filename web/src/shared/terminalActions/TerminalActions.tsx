// The terminal action set on screen: buttons for a panel or a card, items for a context menu, and what each does.
// Individual calls go through the window's voice engine (a child window's through its opener's), the message
// screen opens on the terminal's conversation, video calls and monitoring open in the video call window.
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App, Button, Space, type MenuProps } from 'antd';
import { EyeOutlined, MessageOutlined, PhoneOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { isDsKeyEnabled, isFeatureEnabled } from '../access/features';
import { useGateContext } from '../access/gate';
import { useDirectory } from '../directory/store';
import { useSession } from '../session';
import { startVideoCall, startVideoMonitor } from '../video/store';
import { pttEngine } from '../voice/console';
import { voiceErrorText } from '../voice/errors';
import { ACTION_TEST_ID, actionOfMenuKey, menuKey, terminalActions, type TerminalAction } from './actions';

const ICON: Record<TerminalAction, ReactNode> = {
  call: <PhoneOutlined />,
  message: <MessageOutlined />,
  videoCall: <VideoCameraOutlined />,
  monitor: <EyeOutlined />,
};

export function useTerminalActions() {
  const { t } = useTranslation('common');
  const { t: tVoice } = useTranslation('voice');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const gate = useGateContext();
  const me = useSession((s) => s.session?.userInfo.msId);
  const rights = { me, message: isDsKeyEnabled('message', gate), videoCall: isFeatureEnabled('videoFunction', gate), monitor: isFeatureEnabled('videoMonitor', gate) };

  const available = (cid: string): TerminalAction[] => {
    const term = useDirectory.getState().terminals[cid];
    return term ? terminalActions(term, rights) : [];
  };

  const run = (action: TerminalAction, cid: string) => {
    const name = useDirectory.getState().terminals[cid]?.name || cid;
    switch (action) {
      case 'call':
        return void pttEngine()
          .invite('single', { msId: cid })
          .then(() => message.success(t('terminal.calling', { name })))
          .catch((e: unknown) => message.error(voiceErrorText(tVoice, e)));
      case 'message':
        return void navigate(`/message?msId=${encodeURIComponent(cid)}`);
      case 'videoCall':
        return void startVideoCall(cid, name);
      case 'monitor':
        return void startVideoMonitor(cid, name);
    }
  };

  /** The set as context-menu items (keys "terminal.<action>"). */
  const menuItems = (cid: string): NonNullable<MenuProps['items']> =>
    available(cid).map((a) => ({
      key: menuKey(a),
      icon: ICON[a],
      label: (
        <span data-testid={ACTION_TEST_ID[a]} data-action={a}>
          {t(`terminal.${a}`)}
        </span>
      ),
    }));

  /** Runs a menu key of the set; false for keys of other features. */
  const onMenu = (key: string, cid: string): boolean => {
    const a = actionOfMenuKey(key);
    if (a) run(a, cid);
    return !!a;
  };

  return { available, run, menuItems, onMenu, label: (a: TerminalAction) => t(`terminal.${a}`) };
}

/** The set as a row of buttons: the first thing under a terminal's name, so it never scrolls out of sight. */
export function TerminalActionBar({ cid }: { cid: string }) {
  const actions = useTerminalActions();
  const type = useDirectory((s) => s.terminals[cid]?.type);
  const list = type === undefined ? [] : actions.available(cid);
  if (!list.length) return null;
  return (
    <Space wrap size={4} className="terminal-actions" data-testid="terminal-actions" data-cid={cid}>
      {list.map((a) => (
        <Button key={a} size="small" type={a === 'call' ? 'primary' : 'default'} icon={ICON[a]} onClick={() => actions.run(a, cid)} data-testid={ACTION_TEST_ID[a]} data-action={a}>
          {actions.label(a)}
        </Button>
      ))}
    </Space>
  );
}
