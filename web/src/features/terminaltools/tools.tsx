// What the terminal tools add to the dispatch screen: the menu items of a terminal, their dialogs, and the
// buttons of the terminal panel. The home page composes them (features never import each other).
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type MenuProps } from 'antd';
import { isFeatureEnabled } from '../../shared/access/features';
import { useGateContext } from '../../shared/access/gate';
import { MuteDialog } from './components/MuteDialog';
import { ParamsDialog } from './components/ParamsDialog';
import { RightsDialog } from './components/RightsDialog';

export const TOOLS_ACTION_PREFIX = 'tools.';
type Tool = 'mute' | 'params' | 'rights';

export function useTerminalTools(): {
  items: () => NonNullable<MenuProps['items']>;
  onAction: (action: string, cid: string) => boolean;
  dialogs: ReactNode;
  buttons: (cid: string) => ReactNode;
} {
  const { t } = useTranslation('terminaltools');
  const gate = useGateContext();
  const [open, setOpen] = useState<{ tool: Tool; cid: string } | null>(null);
  const canMute = isFeatureEnabled('muteList', gate);
  const canRemote = isFeatureEnabled('remoteSwitch', gate);
  const canManage = isFeatureEnabled('terminalManage', gate);
  const items = (): NonNullable<MenuProps['items']> => [
    ...(canMute ? [{ key: 'tools.mute', label: t('menu.mute') }] : []),
    ...(canRemote ? [{ key: 'tools.params', label: t('menu.params') }] : []),
    ...(canManage ? [{ key: 'tools.rights', label: t('menu.rights') }] : []),
  ];
  const onAction = (action: string, cid: string) => {
    if (!action.startsWith(TOOLS_ACTION_PREFIX)) return false;
    setOpen({ tool: action.slice(TOOLS_ACTION_PREFIX.length) as Tool, cid });
    return true;
  };
  const close = () => setOpen(null);
  const dialogs =
    open?.tool === 'mute' ? <MuteDialog cid={open.cid} onClose={close} /> : open?.tool === 'params' ? <ParamsDialog cid={open.cid} onClose={close} /> : open?.tool === 'rights' ? <RightsDialog cid={open.cid} onClose={close} /> : null;
  const buttons = (cid: string) =>
    items().map((it) => (
      <Button key={String(it?.key)} size="small" onClick={() => onAction(String(it?.key), cid)} data-testid={`panel-${String(it?.key).replace('.', '-')}`}>
        {t(`button.${String(it?.key).slice(TOOLS_ACTION_PREFIX.length)}`)}
      </Button>
    ));
  return { items, onAction, dialogs, buttons };
}
