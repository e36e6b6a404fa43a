import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App, Badge, Button, Dropdown, Layout, Menu, Select, Spin, Switch, Tooltip, type MenuProps } from 'antd';
import { DesktopOutlined, LogoutOutlined, MoonOutlined, SettingOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useSession } from '../shared/session';
import { signOut } from '../features/auth/signIn';
import { ChangePasswordDialog } from '../features/auth/components/ChangePasswordDialog';
import { useBranding } from '../shared/branding/store';
import { SettingsDialog } from '../features/settings/components/SettingsDialog';
import { useSettings } from '../shared/settings';
import { VoiceMount } from '../features/voice/mount';
import { VideoCallMount } from '../features/videocall/mount';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../i18n/languages';
import { startLive, useLiveStatus } from '../shared/socket/live';
import { useDirectoryFeed } from '../shared/directory/useLiveDirectory';
import { useBrandingFeed } from '../shared/branding/feed';
import { trimText } from '../shared/utils/text';
import { AlarmInterrupt } from '../features/alarm/components/AlarmInterrupt';
import { UnreadMenuBadge } from '../features/message/components/UnreadMenuBadge';
import { ReleaseNotesDialog } from './components/ReleaseNotesDialog';
import { useGateContext } from '../shared/access/gate';
import { isFeatureEnabled } from '../shared/access/features';
import { buildMenu } from './menu';
import { LOGIN_PATH, MANUAL_PATH } from '../shared/access/routes';
import { isDarkSkin } from '../shared/theme';
import './shell.css';

const { Header, Content } = Layout;

type ShellDialog = 'settings' | 'password' | 'release';

export default function Shell() {
  const { t } = useTranslation('app');
  const navigate = useNavigate();
  const location = useLocation();
  const { message } = App.useApp();
  const user = useSession((s) => s.session?.userInfo);
  const branding = useBranding((s) => s.branding);
  const title = useBranding((s) => s.clientConfig.title);
  // The host's client configuration (spec §3): its top-bar icon, and the page its multi-screen launcher opens.
  const topIco = useBranding((s) => s.clientConfig.topIco);
  const moreScreenUrl = useBranding((s) => s.clientConfig.moreScreenUrl);
  const language = useSettings((s) => s.language);
  const skin = useSettings((s) => s.theme);
  const update = useSettings((s) => s.update);
  const status = useLiveStatus((s) => s.status);
  const gate = useGateContext();
  const menu = useMemo(() => buildMenu(gate), [gate.accountType, gate.version, JSON.stringify(gate.flags)]); // eslint-disable-line react-hooks/exhaustive-deps
  const [dialog, setDialogState] = useState<ShellDialog | null>(null);
  // A dialog is mounted from its first opening on (then kept, for its closing animation): the settings form alone
  // was 300 hidden elements and their styles on every start of the console (issue 32).
  const [opened, setOpened] = useState<ShellDialog[]>([]);
  const setDialog = (d: ShellDialog | null) => {
    setDialogState(d);
    if (d) setOpened((o) => (o.includes(d) ? o : [...o, d]));
  };

  useEffect(() => {
    startLive().catch(() => message.warning(t('socketOffline')));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useDirectoryFeed(); // presence and status stay live on every screen, not only where the tree shows
  useBrandingFeed(); // a custom theme saved for this host applies at once (ADR 0021)

  const items: MenuProps['items'] = [
    ...menu.main.map((r) => ({ key: r.path, label: r.screen === 'message' ? <UnreadMenuBadge label={t('menu.message')} /> : t(`menu.${r.screen}`) })),
    ...(menu.more.length
      ? [{ key: 'more', label: t('menu.more'), children: menu.more.map((r) => ({ key: r.path, label: t(`menu.${r.screen}`) })) }]
      : []),
  ];

  const userMenu: MenuProps['items'] = [
    { key: 'password', label: t('changePassword') },
    { key: 'release', label: t('releaseNotes') },
    { key: 'manual', label: t('menu.userManual') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('logout'), danger: true },
  ];

  const onUserMenu: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'logout') {
      await signOut();
      navigate(LOGIN_PATH, { replace: true });
    } else if (key === 'manual') navigate(MANUAL_PATH);
    else setDialog(key as ShellDialog);
  };

  const sysName = branding?.sysName || title || t('productName');
  const logo = topIco || branding?.logoUrl;
  const openMoreScreens = (url: string) => {
    // Another site gets no handle on the console; a console page of this host shares its voice engine (opener).
    const foreign = new URL(url, window.location.href).origin !== window.location.origin;
    window.open(url, 'tenfour-more-screens', `popup,width=1280,height=800${foreign ? ',noopener' : ''}`);
  };
  const selected = '/' + location.pathname.split('/')[1];

  return (
    <Layout className="shell" data-testid="shell">
      <Header className="shell-header">
        <div className="shell-brand" data-testid="brand">
          {logo ? <img src={logo} alt="" className="shell-logo" data-testid="brand-logo" /> : <span className="shell-logo-mark" />}
          <span className="shell-sysname" title={sysName}>
            {trimText(sysName, 28)}
          </span>
        </div>
        <Menu className="shell-menu" mode="horizontal" theme="dark" selectedKeys={[selected]} items={items} onClick={({ key }) => navigate(key)} data-testid="main-menu" />
        <div className="shell-tools">
          <Tooltip title={t(`socket.${status}`)}>
            <Badge status={status === 'online' ? 'success' : status === 'reconnecting' || status === 'connecting' ? 'processing' : 'error'} data-testid="socket-status" data-status={status} />
          </Tooltip>
          <Select
            size="small"
            value={language}
            onChange={(v: Language) => update({ language: v })}
            options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            style={{ width: 110 }}
            aria-label={t('language')}
            data-testid="lang-select"
          />
          <Tooltip title={t('themeToggle')}>
            <Switch
              checkedChildren={<MoonOutlined />}
              unCheckedChildren={<SunOutlined />}
              checked={isDarkSkin(skin)}
              onChange={(dark) => update({ theme: dark ? 'dark' : 'light' })}
              data-testid="theme-switch"
            />
          </Tooltip>
          {moreScreenUrl && isFeatureEnabled('multiScreen', gate) && (
            <Tooltip title={t('moreScreens')}>
              <Button type="text" icon={<DesktopOutlined />} onClick={() => openMoreScreens(moreScreenUrl)} aria-label={t('moreScreens')} data-testid="more-screens" className="shell-icon-btn" />
            </Tooltip>
          )}
          <Tooltip title={t('settings')}>
            <Button type="text" icon={<SettingOutlined />} onClick={() => setDialog('settings')} aria-label={t('settings')} data-testid="settings-button" className="shell-icon-btn" />
          </Tooltip>
          <Dropdown menu={{ items: userMenu, onClick: onUserMenu }} trigger={['click']}>
            <Button type="text" icon={<UserOutlined />} data-testid="user-menu" className="shell-icon-btn">
              {user?.msName ? trimText(user.msName, 16) : user?.msId}
            </Button>
          </Dropdown>
        </div>
      </Header>
      <div className="shell-main">
        <Content className="shell-content">
          <Suspense fallback={<Spin className="shell-spin" />}>
            <Outlet />
          </Suspense>
        </Content>
        <VoiceMount />
        <VideoCallMount />
      </div>
      {opened.includes('settings') && <SettingsDialog open={dialog === 'settings'} onClose={() => setDialog(null)} />}
      {opened.includes('password') && <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />}
      {opened.includes('release') && <ReleaseNotesDialog open={dialog === 'release'} onClose={() => setDialog(null)} />}
      <AlarmInterrupt />
    </Layout>
  );
}
