import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Checkbox, Dropdown, Input, Space, Switch, Tabs, type MenuProps } from 'antd';
import { ExportOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { isDsKeyEnabled, isFeatureEnabled, showCameraGroup, showOutsideGroup } from '../../shared/access/features';
import { useGateContext } from '../../shared/access/gate';
import { ALL_ROUTES, WINDOW_SCREENS } from '../../shared/access/routes';
import { LogPanel } from '../../features/logs/components/LogPanel';
import { useSettings } from '../../shared/settings';
import { directoryApi, directoryKeys, outsideTerminalsQuery } from '../../shared/directory/api';
import { liveActions, type CallSetAction } from '../../features/dispatch/actions';
import { useErrorText } from '../../shared/errorText';
import { AvatarDialog } from '../../features/dispatch/components/AvatarDialog';
import { GroupTree } from '../../features/dispatch/components/GroupTree';
import { NameDialog, type ParentOption } from '../../features/dispatch/components/NameDialog';
import { TerminalInfoPanel } from '../../features/dispatch/components/TerminalInfoPanel';
import { terminalKind, type Group } from '../../shared/directory/model';
import { upsertTerminals, useDirectory } from '../../shared/directory/store';
import { childGroups, parseKey, viewModeFor } from '../../features/dispatch/tree';
import { useLiveDirectory } from '../../shared/directory/useLiveDirectory';
import { TempCallButton, useVoiceMenu } from '../../features/voice/tree';
import { useTerminalTools } from '../../features/terminaltools/tools';
import '../../features/dispatch/dispatch.css';

type DialogState =
  | { kind: 'temp' }
  | { kind: 'fixed'; parent?: string }
  | { kind: 'renameGroup'; gid: string }
  | { kind: 'renameTerminal'; cid: string }
  | { kind: 'move'; cid: string; from: string }
  | { kind: 'switch'; cid: string }
  | { kind: 'avatar'; cid: string }
  | null;


export default function HomePage() {
  const { t } = useTranslation('dispatch');
  const errorText = useErrorText('dispatch');
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const gate = useGateContext();
  const directory = useLiveDirectory();
  const groups = useDirectory((s) => s.groups);
  const hideOffline = useSettings((s) => s.hideOffline);
  const hideDispatcher = useSettings((s) => s.hideDispatcher);
  const update = useSettings((s) => s.update);
  const [search, setSearch] = useState('');
  const [checked, setChecked] = useState<string[]>([]);
  const [selected, setSelected] = useState<string>();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [keepOld, setKeepOld] = useState(false);
  const [tab, setTab] = useState<string>();
  const voiceMenu = useVoiceMenu();
  const tools = useTerminalTools(); // mute list, remote parameters, voice rights, TURN

  const fixedGroups = useMemo(() => Object.values(groups).filter((g) => g.kind === 'fixed'), [groups]);
  const tempGroups = useMemo(() => Object.values(groups).filter((g) => g.kind === 'temp'), [groups]);
  const roots = useMemo(() => childGroups(groups).get('0') ?? [], [groups]);
  const mode = viewModeFor(Object.keys(groups).length);
  const canManage = isFeatureEnabled('manageGroup', gate);
  const canTerminal = isFeatureEnabled('terminalManage', gate);
  // Temp-group management is for account type "1" only (spec §6); a "-2" dispatcher is not offered it (the server
  // would answer 107).
  const canTemp = isFeatureEnabled('tempGroupManage', gate);

  const outsideOn = showOutsideGroup(gate.flags);
  const outside = useQuery({ ...outsideTerminalsQuery(), enabled: outsideOn });
  const cameraGroup = useMemo<Group | undefined>(() => {
    if (!showCameraGroup(gate)) return undefined;
    const cams = Object.values(useDirectory.getState().terminals).filter((x) => terminalKind(x.type) === 'camera').map((x) => x.cid);
    return cams.length ? { gid: '__camera', fid: '0', name: t('group.camera'), seqNum: 9998, kind: 'fixed', members: cams } : undefined;
  }, [groups, gate.version, t]); // eslint-disable-line react-hooks/exhaustive-deps
  const outsideGroup = useMemo<Group | undefined>(() => {
    const list = outside.data?.list;
    if (!outsideOn || !list) return undefined;
    const inGroups = new Set(Object.values(groups).flatMap((g) => g.members));
    const members = list.filter((x) => !inGroups.has(String(x.cid)));
    upsertTerminals(members);
    return members.length ? { gid: '__outside', fid: '0', name: t('group.outside'), seqNum: 9999, kind: 'fixed', members: members.map((m) => String(m.cid)) } : undefined;
  }, [outside.data, outsideOn, groups, t]);

  const filters = { hideOffline, hideDispatcher, search, cameraGroup, outsideGroup };
  const activeTab = tab && groups[tab] ? tab : roots[0]?.gid;
  const treeRoots = mode === 'horizontal' && !search && activeTab ? [activeTab] : undefined;

  const refreshGroups = () => qc.invalidateQueries({ queryKey: directoryKeys.groups() });
  const fail = (e: unknown) => message.error(errorText(e));
  const run = async (fn: () => Promise<unknown>, ok: string, refresh = false) => {
    try {
      await fn();
      message.success(t(ok));
      if (refresh) await refreshGroups();
      setDialog(null);
    } catch (e) {
      fail(e);
    }
  };

  const confirmCallSet = (cid: string, action: CallSetAction) => {
    const name = useDirectory.getState().terminals[cid]?.name ?? cid;
    modal.confirm({
      title: t(`confirm.${action}.title`),
      content: t(`confirm.${action}.body`, { name }),
      okButtonProps: { danger: action !== 'revive' },
      onOk: () => run(() => liveActions.callSet(cid, action), 'done.callSet'),
    });
  };

  // The tree follows through the server's group.changed event (the directory feed refetches), here and on every
  // other console of the customer.
  const confirmRemove = (cid: string, gid: string) =>
    modal.confirm({
      title: t('confirm.removeFromGroup.title'),
      content: t('confirm.removeFromGroup.body', { name: useDirectory.getState().terminals[cid]?.name ?? cid, group: groups[gid]?.name ?? gid }),
      okButtonProps: { danger: true },
      onOk: () => run(() => directoryApi.removeGroupMs(cid, gid), 'done.removed'),
    });

  const terminalAction = (cid: string, gid: string, action: string) => {
    switch (action) {
      case 'info':
        return setSelected(cid);
      case 'rename':
        return setDialog({ kind: 'renameTerminal', cid });
      case 'move':
        return setDialog({ kind: 'move', cid, from: gid });
      case 'switch':
        return setDialog({ kind: 'switch', cid });
      case 'avatar':
        return setDialog({ kind: 'avatar', cid });
      case 'kill':
      case 'stun':
      case 'revive':
        return confirmCallSet(cid, action);
      case 'leaveTemp':
        return void run(() => liveActions.delTempMember(gid, cid), 'done.saved');
      case 'removeFromGroup':
        return confirmRemove(cid, gid);
    }
  };

  const groupAction = (gid: string, action: string) => {
    const g = groups[gid];
    if (!g) return;
    switch (action) {
      case 'rename':
        return setDialog({ kind: 'renameGroup', gid });
      case 'addSub':
        return setDialog({ kind: 'fixed', parent: gid });
      case 'switchOwn':
        return void run(() => liveActions.switchGroup(gid), 'done.switched');
      case 'delete':
        return modal.confirm({
          title: t('confirm.deleteGroup.title'),
          content: t('confirm.deleteGroup.body', { name: g.name }),
          okButtonProps: { danger: true },
          onOk: () => (g.kind === 'temp' ? run(() => liveActions.removeTempGroup(gid), 'done.deleted') : run(() => directoryApi.deleteGroup(gid), 'done.deleted', true)),
        });
    }
  };

  const contextMenu = (key: string): MenuProps['items'] => {
    const p = parseKey(key);
    if (p.kind === 'group') {
      const g = groups[p.gid];
      if (!g) return [];
      const canEdit = g.kind === 'temp' ? canTemp : canManage;
      return [
        { key: 'switchOwn', label: <span title={t('actions.switchOwnHelp')}>{t('actions.switchOwn')}</span> },
        ...(canEdit ? [{ key: 'rename', label: t('actions.rename') }] : []),
        ...(canManage && g.kind === 'fixed' ? [{ key: 'addSub', label: t('actions.addSub') }] : []),
        ...(canEdit ? [{ key: 'delete', label: t('actions.delete'), danger: true }] : []),
        ...voiceMenu.groupItems(p.gid),
      ];
    }
    const inTemp = groups[p.gid]?.kind === 'temp';
    const inFixed = groups[p.gid]?.kind === 'fixed';
    return [
      { key: 'info', label: t('actions.info') },
      ...(canTerminal
        ? [
            { key: 'rename', label: t('actions.rename') },
            { key: 'move', label: t('actions.move') },
            { key: 'switch', label: t('actions.switch') },
            { key: 'avatar', label: t('actions.avatar') },
            ...(inFixed ? [{ key: 'removeFromGroup', label: t('actions.removeFromGroup'), danger: true }] : []),
            { type: 'divider' as const },
            { key: 'stun', label: t('actions.stun') },
            { key: 'kill', label: t('actions.kill'), danger: true },
            { key: 'revive', label: t('actions.revive') },
          ]
        : []),
      ...(inTemp && canTemp ? [{ key: 'leaveTemp', label: t('actions.leaveTemp') }] : []),
      ...voiceMenu.terminalItems(p.cid!),
      ...(tools.items().length ? [{ type: 'divider' as const }, ...tools.items()] : []),
    ];
  };

  const onMenu = (key: string, action: string) => {
    const p = parseKey(key);
    if (voiceMenu.onAction(action, p.kind === 'group' ? { gid: p.gid } : { cid: p.cid })) return;
    if (p.kind !== 'group' && tools.onAction(action, p.cid!)) return;
    if (p.kind === 'group') groupAction(p.gid, action);
    else terminalAction(p.cid!, p.gid, action);
  };

  const fixedTree = useMemo(() => {
    const byParent = childGroups(groups);
    const walk = (parent: string): ParentOption[] =>
      (byParent.get(parent) ?? []).filter((g) => g.kind === 'fixed').map((g) => ({ value: g.gid, title: g.name, children: walk(g.gid) }));
    return walk('0');
  }, [groups]);

  // Extra windows: the -child copy of each offered screen whose feature is on, only where multi-screen is.
  const windows = isFeatureEnabled('multiScreen', gate)
    ? ALL_ROUTES.filter((r) => r.child && WINDOW_SCREENS.includes(r.screen) && (!r.dsKey || isDsKeyEnabled(r.dsKey, gate))).map((r) => r.path)
    : [];
  const openWindow = (path: string) => window.open(path, `tenfour${path.replace(/\W/g, '-')}`, 'popup,width=1100,height=760');

  const d = dialog;
  const selectedTerminal = d && 'cid' in d ? useDirectory.getState().terminals[d.cid] : undefined;

  return (
    <div className="dispatch" data-testid="home-page" data-view-mode={mode}>
      <Card size="small" className="dispatch-tree-card" title={t('tree.title')} extra={directory.isFetching ? <span className="dispatch-sync">{t('tree.syncing')}</span> : null}>
        <Space wrap className="dispatch-toolbar">
          <Input.Search allowClear placeholder={t('tree.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 200 }} data-testid="tree-search" />
          <label className="dispatch-switch" title={t('tree.hideOffline')}>
            <Switch size="small" checked={hideOffline} onChange={(v) => update({ hideOffline: v })} data-testid="hide-offline" />
            <span className="dispatch-label">{t('tree.hideOfflineShort')}</span>
          </label>
          <label className="dispatch-switch">
            <Switch size="small" checked={hideDispatcher} onChange={(v) => update({ hideDispatcher: v })} data-testid="hide-dispatcher" />
            <span className="dispatch-label">{t('tree.hideDispatcherShort')}</span>
          </label>
        </Space>
        <Space wrap className="dispatch-toolbar">
          {canTemp && (
            <Button
              size="small"
              icon={<ThunderboltOutlined />}
              onClick={() => (checked.length ? setDialog({ kind: 'temp' }) : message.warning(t('errors.1')))}
              data-testid="create-temp"
            >
              {t('tree.createTemp', { count: checked.length })}
            </Button>
          )}
          <TempCallButton cids={checked} />
          {canManage && (
            <Button size="small" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'fixed' })} data-testid="create-fixed">
              {t('tree.createFixed')}
            </Button>
          )}
          {windows.length > 0 && (
            <Dropdown menu={{ items: windows.map((p) => ({ key: p, label: t(`windows.${p.slice(1)}`) })), onClick: ({ key }) => openWindow(key) }}>
              <Button size="small" icon={<ExportOutlined />} data-testid="open-window">
                {t('tree.newWindow')}
              </Button>
            </Dropdown>
          )}
        </Space>
        {mode === 'horizontal' && !search && roots.length > 1 && (
          <Tabs size="small" activeKey={activeTab} onChange={setTab} items={roots.map((g) => ({ key: g.gid, label: g.name }))} className="dispatch-tabs" />
        )}
        <GroupTree
          filters={filters}
          roots={treeRoots}
          checkedCids={checked}
          onCheck={setChecked}
          onSelectTerminal={setSelected}
          contextMenu={contextMenu}
          onMenu={onMenu}
          emptyText={directory.isError ? t('tree.loadFailed') : directory.isLoading ? t('tree.loading') : t('tree.empty')}
        />
      </Card>
      <div className="dispatch-side">
        <Card size="small" title={t('info.title')} className="dispatch-info">
          <TerminalInfoPanel cid={selected} extra={selected ? tools.buttons(selected) : null} onAction={(a) => selected && terminalAction(selected, useDirectory.getState().terminals[selected]?.grp ?? '', a)} />
        </Card>
        <Card size="small" title={t('log.title')} className="dispatch-log">
          <LogPanel height="100%" />
        </Card>
      </div>

      <NameDialog
        open={d?.kind === 'temp'}
        title={t('dialogs.temp', { count: checked.length })}
        maxLength={20}
        taken={tempGroups.map((g) => g.name)}
        onClose={() => setDialog(null)}
        onOk={({ name }) =>
          run(async () => {
            await liveActions.createTempGroup(name, checked);
            setChecked([]);
          }, 'done.tempCreated')
        }
      />
      <NameDialog
        open={d?.kind === 'fixed'}
        title={t('dialogs.fixed')}
        taken={fixedGroups.map((g) => g.name)}
        parentOptions={[{ value: '0', title: t('dialogs.root'), children: fixedTree }]}
        parentLabel={t('dialogs.parent')}
        initialParent={d?.kind === 'fixed' ? (d.parent ?? '0') : '0'}
        onClose={() => setDialog(null)}
        onOk={({ name, parent }) => run(() => directoryApi.addGroup(name, parent ?? '0'), 'done.saved', true)}
      />
      <NameDialog
        open={d?.kind === 'renameGroup'}
        title={t('dialogs.renameGroup')}
        initialName={d?.kind === 'renameGroup' ? groups[d.gid]?.name : undefined}
        maxLength={d?.kind === 'renameGroup' && groups[d.gid]?.kind === 'temp' ? 20 : undefined}
        taken={(d?.kind === 'renameGroup' && groups[d.gid]?.kind === 'temp' ? tempGroups : fixedGroups).map((g) => g.name)}
        onClose={() => setDialog(null)}
        onOk={({ name }) => {
          if (d?.kind !== 'renameGroup') return Promise.resolve();
          return groups[d.gid]?.kind === 'temp'
            ? run(() => liveActions.editTempGroup(d.gid, { name }), 'done.saved')
            : run(() => directoryApi.renameGroup(d.gid, name), 'done.saved', true);
        }}
      />
      <NameDialog
        open={d?.kind === 'renameTerminal'}
        title={t('dialogs.renameTerminal')}
        initialName={selectedTerminal?.name}
        onClose={() => setDialog(null)}
        onOk={({ name }) => (d?.kind === 'renameTerminal' ? run(() => directoryApi.renameTerminal(d.cid, name), 'done.saved', true) : Promise.resolve())}
      />
      <NameDialog
        open={d?.kind === 'move'}
        title={t('dialogs.move', { name: selectedTerminal?.name ?? '' })}
        hideName
        parentOptions={fixedTree}
        parentLabel={t('dialogs.target')}
        initialParent={d?.kind === 'move' && groups[d.from]?.kind === 'fixed' ? d.from : undefined}
        extra={
          <Checkbox checked={keepOld} onChange={(e) => setKeepOld(e.target.checked)}>
            {t('dialogs.keepOld')}
          </Checkbox>
        }
        onClose={() => setDialog(null)}
        onOk={({ parent }) =>
          d?.kind === 'move' && parent
            ? run(() => directoryApi.saveGroupMs({ msId: d.cid, groupId: parent, keepOldGrp: keepOld ? '1' : '0', pttGrp: '1', diffClient: '0' }), 'done.saved', true)
            : Promise.resolve()
        }
      />
      <NameDialog
        open={d?.kind === 'switch'}
        title={t('dialogs.switch', { name: selectedTerminal?.name ?? '' })}
        hideName
        parentOptions={fixedTree}
        parentLabel={t('dialogs.target')}
        onClose={() => setDialog(null)}
        onOk={({ parent }) => (d?.kind === 'switch' && parent ? run(() => liveActions.switchGroup(parent, d.cid), 'done.switched') : Promise.resolve())}
      />
      <AvatarDialog
        open={d?.kind === 'avatar'}
        onClose={() => setDialog(null)}
        onSave={(icon, image) => (d?.kind === 'avatar' ? run(() => directoryApi.updateIcon({ msId: d.cid, icon, image }), 'done.saved') : Promise.resolve())}
      />
      {tools.dialogs}
    </div>
  );
}
