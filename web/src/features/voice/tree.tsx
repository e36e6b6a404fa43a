// What the voice feature adds to the dispatch tree: talker highlighting of rows, monitoring actions in the terminal
// and group menus (the individual call is the terminal action set's, shared/terminalActions), and the
// temporary-group call of a multi-selection. The dispatch screen imports these.
import { useTranslation } from 'react-i18next';
import { App, Button, type MenuProps } from 'antd';
import { PhoneOutlined } from '@ant-design/icons';
import { isFeatureEnabled } from '../../shared/access/features';
import { useGateContext } from '../../shared/access/gate';
import { useVoice } from '../../shared/voice/store';
import { useSession } from '../../shared/session';
import { consoleVoice } from '../../shared/voice/console';
import { voiceErrorText } from '../../shared/voice/errors';
import { useVoiceRun } from './hooks';
export { useGroupTalker, useMonitored, useTerminalTalking } from '../../shared/voice/rows';

export const VOICE_ACTION_PREFIX = 'voice.';

/** Menu items and their handler for the dispatch tree's context menus. */
export function useVoiceMenu() {
  const { t } = useTranslation('voice');
  const gate = useGateContext();
  const me = useSession((s) => s.session?.userInfo.msId);
  const canMonitor = isFeatureEnabled('groupMonitor', gate);

  const run = useVoiceRun();

  const terminalItems = (cid: string): NonNullable<MenuProps['items']> => {
    if (cid === me) return [];
    const s = useVoice.getState();
    return [
      { type: 'divider' as const },
      ...(canMonitor ? [s.monitor.terminal === cid ? { key: 'voice.unmonitor', label: t('menu.unmonitorTerminal') } : { key: 'voice.monitor', label: t('menu.monitorTerminal') }] : []),
    ];
  };

  const groupItems = (gid: string): NonNullable<MenuProps['items']> => {
    if (gid.startsWith('__')) return [];
    const s = useVoice.getState();
    return [
      { type: 'divider' as const },
      { key: 'voice.talk', label: <span title={t('menu.talkInGroupHelp')}>{t('menu.talkInGroup')}</span> },
      ...(canMonitor ? [s.monitor.groups.includes(gid) ? { key: 'voice.unmonitor', label: t('menu.unmonitorGroup') } : { key: 'voice.monitor', label: t('menu.monitorGroup') }] : []),
    ];
  };

  /** Handles a `voice.*` menu key; returns false for keys of other features. */
  const onAction = (action: string, node: { cid?: string; gid?: string }): boolean => {
    if (!action.startsWith(VOICE_ACTION_PREFIX)) return false;
    const e = consoleVoice();
    const verb = action.slice(VOICE_ACTION_PREFIX.length);
    if (node.cid) {
      const msId = node.cid;
      if (verb === 'monitor') void run(() => e.monitorStart({ msId }), 'monitor.started');
      else if (verb === 'unmonitor') void run(() => e.monitorStop({ msId }), 'monitor.stopped');
    } else if (node.gid) {
      const gid = node.gid;
      if (verb === 'talk') e.setTarget({ gid });
      else if (verb === 'monitor') void run(() => e.monitorStart({ gid }), 'monitor.started');
      else if (verb === 'unmonitor') void run(() => e.monitorStop({ gid }), 'monitor.stopped');
    }
    return true;
  };

  return { terminalItems, groupItems, onAction };
}

/** "Call the selected" — a temporary-group call of the ticked terminals (docs/voice.md §3, kind temp). */
export function TempCallButton({ cids }: { cids: string[] }) {
  const { t } = useTranslation('voice');
  const { message } = App.useApp();
  const me = useSession((s) => s.session?.userInfo.msId);
  const msIds = cids.filter((c) => c !== me);
  return (
    <Button
      size="small"
      icon={<PhoneOutlined />}
      disabled={msIds.length === 0}
      onClick={async () => {
        try {
          await consoleVoice().invite('temp', { msIds });
          message.success(t('temp.started', { count: msIds.length }));
        } catch (e) {
          message.error(voiceErrorText(t, e));
        }
      }}
      data-testid="temp-call"
    >
      {t('temp.button', { count: msIds.length })}
    </Button>
  );
}
